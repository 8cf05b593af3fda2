/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPEVACUATION_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPEVACUATION_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/growableArray.hpp"

class ParCompactionManager;
class TeraHeapRegions;

// Sparse labels evacuated at full GCs. A region lives while anything refers
// into it, so a group that the program dropped keeps all its regions while
// another group still refers to a few of its objects (GraphX's successive
// graphs share their index and edge arrays). Such a label is found cheaply:
// none of its tagged roots was reached by the last full GC's marking (an
// "orphaned" label; the roots in H2 are remembered per region from their move
// on, and looked up when marking reaches that region). The next full GC then traces it object by object:
// marking records which of its objects are reached (from H1, roots, or the
// cards of other regions) and follows their fields within traced regions,
// so that the label's live data is known exactly, and weak references into
// it are cleared per object. If that is under
// -XX:TeraHeapEvacuationLiveThresholdPercent of what its regions hold, its
// live objects are copied, in address order (which keeps the depth-first
// layout), into fresh regions of the same label; the old copies forward to
// the new ones until every reference has been adjusted (live H1 objects with
// the groups' moves, roots and H2's cards in the adjust phase), and then the
// old regions are freed.
//
// A label is traced at most every so many full GCs, doubling while it stays
// orphaned, and the regions traced in one full GC are bounded, so that
// tracing never reads more than a bounded part of H2 per pause. Labels with
// an object larger than a region are not traced.
class TeraHeapEvacuation : AllStatic {
public:
  static void initialize(TeraHeapRegions* regions);
  static bool enabled();

  // Before marking: picks the orphaned labels to trace in this full GC.
  static void prepare();
  // Marking reached `obj` in H2 from outside a traced label: records it if
  // its region is traced, and notes a tagged root reached. Any GC worker.
  static void reached(oop obj);
  // Follows one recorded object and what it reaches within traced regions
  // into `cm`'s marking stacks; false if none was waiting.
  static bool trace(ParCompactionManager* cm);
  // Whether marking reached `obj`, which is in a traced region.
  static bool is_traced_region(const void* p);
  static bool is_reached(oop obj);

  // The full GC freed the dead regions: those traced are not evacuated.
  static void forget_freed_regions();
  // A group of `label` rooted in H1 was live at this full GC.
  static void note_rooted(jlong label);
  // A tagged root just moved to H2, at `copy`: marking looks for it from now on.
  static void note_moved_root(oop copy);
  // After the groups moved: copies the live objects of the traced labels that
  // proved sparse. Returns the objects copied.
  static size_t evacuate();
  // Whether `p` is in a region whose objects may have been copied this GC.
  static bool is_evacuating(const void* p);
  // H2's cards are adjusted: frees the evacuated regions, and notes which
  // labels are orphaned for the next full GC. Returns the regions freed.
  static size_t finish();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPEVACUATION_HPP
