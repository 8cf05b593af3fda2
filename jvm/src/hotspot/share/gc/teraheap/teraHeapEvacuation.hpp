/*
 * Orphaned labels traced, and sparse ones copied out, at full GCs.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPEVACUATION_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPEVACUATION_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapRegions;

// Sparse labels evacuated at full GCs. A region lives while anything refers
// into it, so a group that the program dropped keeps all its regions while
// another group still refers to a few of its objects (GraphX's successive
// graphs share their index and edge arrays), or while a live group of the
// same label shares a region with it (links within a label are kept per
// region). Such a label is found cheaply: it is orphaned (TeraHeapOrphans),
// one of its tagged roots in H2 not reached by the last full GC's marking
// from roots (TeraHeapH2Roots). So is a label the program wrote into since
// its last trace, which may have removed objects from a group it keeps. A
// full GC then traces the label object by object (TeraHeapTrace), so that
// its live data is known exactly, and weak
// references into it are cleared per object. If that is under
// -XX:TeraHeapEvacuationLiveThresholdPercent of what its regions hold, its
// live objects are copied, in address order (which keeps the depth-first
// layout), into fresh regions of the same label (TeraHeapEvacuateTask); the
// old copies forward to the new ones until every reference has been adjusted
// (live H1 objects with the groups' moves, roots and H2's cards in the
// adjust phase), and then the old regions are freed. In traced regions that
// stay, the unreached objects on cards that the collectors read become
// fillers, and unreached roots are forgotten.
//
// An object larger than a region is never copied: if reached it stays where
// it is (its cards dirtied, so that the adjust step points it at the copies),
// and if not its regions are freed with the label's copied ones.
//
// A label is traced at most every so many full GCs, doubling while it stays
// orphaned, and the regions traced in one full GC are bounded (but for one
// label larger than the bound, traced alone), so that tracing reads a
// bounded part of H2 per pause.
//
// This class sequences those steps over a full GC; each answers false or
// does nothing when evacuation is off (-XX:TeraHeapEvacuationLiveThresholdPercent=0),
// but is_reached, which is asked only of a traced region.
class TeraHeapEvacuation : AllStatic {
  static TeraHeapRegions* _regions;   // NULL: evacuation is off
  static uint _full_gcs;
  static uint _stress_evacuations;    // -XX:+TeraHeapStressEvacuationFailure's count
  static bool* _evacuating;           // per region: its objects may be copied in this GC
  static GrowableArrayCHeap<uint, mtGC>* _evacuating_list;
  static GrowableArrayCHeap<uint, mtGC>* _evacuated_list;   // to free once adjusted
  static GrowableArrayCHeap<jlong, mtGC>* _held_labels;     // sorted
  static size_t _objects_evacuated;
  static size_t _words_evacuated;
  static uint _labels_evacuated;

  // A reached object larger than a region, of a label chosen to be copied, stays.
  static void keep_large_object(uint r, bool label_evacuated);

public:
  static void initialize(TeraHeapRegions* regions);
  static bool enabled() { return _regions != NULL; }

  // Before marking: picks the orphaned labels to trace in this full GC.
  static void prepare();
  // Marking reached `obj` in H2 from outside a traced label: records it if
  // its region is traced, and notes a tagged root reached if no H2 card has
  // been read yet. Any GC worker.
  static void reached(oop obj);
  // The marking from roots is done: roots reached from now on were reached
  // through H2, and do not hold their labels.
  static void end_marking_from_roots();
  // Whether marking reached `obj`, which is in a traced region.
  static bool is_traced_region(const void* p);
  static bool is_reached(oop obj);

  // The full GC freed the dead regions: those traced are not evacuated.
  static void forget_freed_regions();
  // A tagged root just moved to H2, at `copy`: marking looks for it from now on.
  static void note_moved_root(oop copy);
  // After the groups moved: copies the live objects of the traced labels that
  // proved sparse, and makes fillers of the dead objects of traced regions
  // that stay where a collector reads them. Returns the objects copied.
  static size_t evacuate();
  // Whether `p` is in a region whose objects may have been copied this GC.
  static bool is_evacuating(const void* p);
  // H2's cards are adjusted: frees the evacuated regions, and notes which
  // labels are orphaned for the next full GC. Returns the regions freed.
  static size_t finish();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPEVACUATION_HPP
