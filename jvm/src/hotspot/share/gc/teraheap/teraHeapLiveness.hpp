/*
 * Which regions a full GC keeps, found while it marks.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"

class TeraHeapRegions;

// Which H2 regions a full GC keeps, found as part of its marking rather than
// after it. A reference that marking follows into H2 makes the target's region
// live (never its objects). A region made live is then read, once, by the
// thread that next drains its marking stack: its same-label dependencies
// become live, the classes of its objects are kept loaded, its cards' H1
// referents are marked and pushed, and the other regions they refer to become
// live. Draining the stack and reading queued regions alternate until both
// are empty. Regions reached during the marking from roots are queued only,
// and read once it is done, by all GC workers: so which tagged roots in H2
// the marking from roots reaches tells which are held from outside H2
// (TeraHeapH2Roots), and then:
//  - the work runs on the GC workers before reference processing, where
//    Reference discovery belongs (a Reference in H1 reached from an H2 card is
//    discovered like any other), and is balanced by their work stealing;
//  - a region revived while References are processed (by a finalizer's
//    keep-alive, or a soft reference the policy keeps) has its H1 referents
//    marked in that same phase, before weaker References are looked at.
// A traced region (TeraHeapTrace) has its dependencies and classes kept
// but its cards not read: the trace follows the fields of its reached objects,
// and its cards would also make the fields of its dead objects roots.
class TeraHeapLiveness : AllStatic {
  // False during the marking from roots: regions it reaches wait in the queue.
  static volatile bool _reading;

  static bool has_dirty_card(TeraHeapRegions* regions, uint r);
  // Decides how a live region's cards are read: notes what its summary
  // (TeraHeapBackwardTargets) needs; true if its summarized cards may be skipped.
  static bool begin_reading_cards(TeraHeapRegions* regions, uint region);
  template <class Marker> static void mark_cards(TeraHeapRegions* regions, uint region, Marker* marker);

public:
  // Before marking: every region is dead until marking reaches it, and the
  // regions it reaches are queued until start_reading.
  static void prepare(TeraHeapRegions* regions);
  // After the marking from roots, before reference processing: queued
  // regions may be read from now on. True if some wait; the collector's GC
  // workers then read them, and those they lead to (mark_from_live_region).
  static bool start_reading(TeraHeapRegions* regions);
  // Marking reached `obj` in H2 (from H1, a root, or a card of a live region).
  static void mark_reached(TeraHeapRegions* regions, oop obj);

  // (teraHeapLiveness.inline.hpp, for any collector's marker: Parallel's
  // ParCompactionManager, with mark_and_push and follow_klass.)
  // Reads one queued live region into `marker`; false if none was queued,
  // or the marking from roots is still running.
  template <class Marker> static inline bool mark_from_live_region(TeraHeapRegions* regions, Marker* marker);
  // Once regions are read, marking has skipped the summarized cards of
  // regions whose summary named only objects it would mark anyway; for those
  // whose summary names an object marking did not reach after all
  // (TeraHeapBackwardTargets::confirm), the GC workers read them with this.
  template <class Marker> static inline void mark_summarized_cards(TeraHeapRegions* regions, uint region,
                                                                   Marker* marker);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_HPP
