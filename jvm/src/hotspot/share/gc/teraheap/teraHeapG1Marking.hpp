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
// the same live bits (TeraHeapRegions), and reads a region's cards only once
// the region is found live, as a full GC does:
//  - H1 to H2: marking (its roots, its tasks, root regions, SATB entries,
//    reference processing) reaching an H2 object makes its region live and
//    queues it; it never marks or traces H2's objects. So does a pause that
//    copies objects to H2: what it copied in the concurrent start pause was
//    in eden at the snapshot, and no root region holds it.
//  - A queued region is taken by a marking task (TeraHeapG1MarkingScan),
//    which makes its dependencies (its label's regions, kept) live and reads
//    its cards: what they refer to in H1 is marked, and another label's
//    region they refer to is reached in turn. Marking does not terminate
//    while a region waits, and reference processing drains the queue as it
//    drains G1's stacks.
// Why reading cards while the program runs is enough (SATB): what must be
// marked is what was reachable when the cycle started. A field of a live
// region still holds its value then, or the program overwrote it and G1's
// pre-barrier logged the old value; a young pause changes a field only to
// the new copy of the object it referred to. A card with a reference into H1
// or to another label is never clean, and is summarized only with its
// targets listed; references inside a label are its dependencies. A value
// stored since the start needs no marking: its object was reachable then, or
// is new (in H1, above G1's TAMS; in H2, a copy made by a pause, which makes
// its region live).
// So a group in H2 that only dead H1 objects refer to, and that refers to
// them, dies in one cycle, as at a full GC. Regions left unreached are freed
// after reference and weak processing, in the pause where G1 stops parsing
// the cycle's dead H1 objects, so nothing G1 reads can still refer into them.
class TeraHeapG1Marking : AllStatic {
  enum Phase { idle, marking, closing };
  static volatile int _phase;
  static TeraHeapRegions* _regions;
  // Per start region: queued for its cards to be read in this cycle. Apart
  // from the live bit, which a region a pause opens has from the start.
  static volatile bool* _queued;

  // A region whose read a marking task left to yield, and where to go on.
  struct PartRead {
    uint region;
    HeapWord* from;
  };
  typedef GrowableArrayCHeap<PartRead, mtGC> PartReads;
  static PartReads*   _part_reads;
  static volatile int _part_read_count;
  static Mutex*       _part_reads_lock;

public:
  static void initialize(TeraHeapRegions* regions);

  // The concurrent start pause, before evacuation: no region is reached.
  static void begin();
  // Marking reached `obj`, in H2, or a pause copied it there. Any thread
  // that marks or copies, in or out of a pause.
  static void reached(oop obj);
  // Start region `region` is live, and its cards are to be read.
  static void reach(uint region);
  // Whether a marking task has a region to read.
  static bool has_regions_to_read();
  // A region for the calling marking task: a live start region and the
  // card to read its cards from (its bottom: the region has not been looked
  // at). False if none waits.
  static bool claim_region(uint* region, HeapWord** from);
  // The caller yields: another task reads `region` on from card `from`.
  static void put_back(uint region, HeapWord* from);
  // Whether an SATB entry in H2 still has to reach marking.
  static bool needs_marking(const void* entry);
  // What G1CMIsAliveClosure answers for `obj`, in H2: alive outside a cycle.
  static bool is_alive(oop obj);

  // Remark, once marking is complete, before reference processing.
  static void marking_complete();
  // Remark, after reference, weak and class processing, before the regions
  // left unreached are freed (TeraHeap::free_dead_regions).
  static void marking_done();
  // The cycle is abandoned: a full GC runs, or G1 undoes the cycle.
  static void abort();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1MARKING_HPP
