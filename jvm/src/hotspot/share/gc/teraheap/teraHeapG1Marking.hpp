/*
 * Which H2 regions a G1 marking cycle reaches, and freeing the others at Remark.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1MARKING_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1MARKING_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/growableArray.hpp"

class Mutex;
class TeraHeapRegions;

// A concurrent cycle decides which H2 regions live, as a full GC does, from
// the same live bits (TeraHeapRegions), without reading a card after its
// concurrent start:
//  - H1 to H2: marking (its roots, its tasks, root regions, SATB entries,
//    reference processing) reaching an H2 object makes its region live;
//    it never marks or traces H2's objects.
//  - H2 to H2: a region leads to its dependencies (its label's regions,
//    kept) and to the other labels' regions that its cards referred to when
//    the cycle started. The concurrent start pause reads every non-clean
//    card, and such links never sit on a summarized card; they are recorded
//    here then.
//  - H2 to H1: the concurrent start marks every H1 object H2 refers to
//    (TeraHeapG1CardScan), dead regions' referents included.
// Why the snapshot's links are enough (SATB): an H2 object is reachable at
// Remark only if it was at the snapshot, along a path whose H1 fields marking
// follows or whose overwrites G1's pre-barrier logged, and whose H2 fields
// are the links above; or if it arrived since, in a young pause that moved
// it (full GCs abort the cycle), and such a copy makes its region live as
// an object allocated since the snapshot is. So the program cannot reach
// what a freed region held.
//
// Live bits are set with no other work while marking runs (in the
// concurrent start pause, a card scan may append to the dependencies it
// would read). At Remark, once marking is complete, they are closed over
// dependencies and links; from then on, a region that reference processing
// revives leads at once to what it refers to, before weaker References are
// looked at. Regions left unreached are freed after reference and weak
// processing, in the pause where G1 stops parsing the cycle's dead H1
// objects, so nothing G1 reads can still refer into them.
class TeraHeapG1Marking : AllStatic {
  typedef GrowableArrayCHeap<uint, mtGC> RegionList;
  enum Phase { idle, marking, closing };
  static volatile int _phase;
  static TeraHeapRegions* _regions;
  // Per start region: the other labels' regions its cards referred to when
  // the cycle started.
  static RegionList** _links;
  static RegionList*  _linked;   // the regions that have links
  static Mutex*       _links_lock;

  static void forget_links();
  static void lead_on(RegionList* stack);

public:
  static void initialize(TeraHeapRegions* regions);

  // The concurrent start pause, before evacuation: no region is reached.
  static void begin();
  // The concurrent start pause: a card of region `from` refers to region
  // `to` of another label. Any GC worker.
  static void add_link(uint from, uint to);
  // Marking reached `obj`, in H2. Any marking thread, in or out of a pause.
  static void reached(oop obj);
  // Whether an SATB entry in H2 still has to reach marking.
  static bool needs_marking(const void* entry);
  // What G1CMIsAliveClosure answers for `obj`, in H2: alive outside a cycle.
  static bool is_alive(oop obj);

  // Remark, once marking is complete, before reference processing.
  static void marking_complete();
  // Remark, after reference, weak and class processing, once the regions
  // left unreached are freed (TeraHeap::free_dead_regions).
  static void marking_done();
  // The cycle is abandoned: a full GC runs, or G1 undoes the cycle.
  static void abort();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1MARKING_HPP
