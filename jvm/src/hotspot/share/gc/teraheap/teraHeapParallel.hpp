/*
 * The Parallel collector's facade: its hooks that pass Parallel's own types.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPPARALLEL_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPPARALLEL_HPP

#include "memory/allStatic.hpp"
#include "memory/virtualspace.hpp"
#include "oops/oopsHierarchy.hpp"

class ParCompactionManager;

// What the Parallel collector's hooks call where they hand over Parallel's
// own types, and the Parallel collector as the rest of the module sees it
// (TeraHeapCollector). The heap is laid out as [H2 | old | young]: H2 below
// the generations, so that the scavenger's single "is young" compare never
// takes an H2 address for a young one. The full GC's hooks that need no
// Parallel type call TeraHeap (teraHeap.hpp), whose comment gives their order.
class TeraHeapParallel : AllStatic {
public:
  // Given the whole heap reservation, maps H2's file over its low end and
  // returns the rest, for the old and young generations.
  static ReservedSpace initialize(ReservedSpace heap_rs);

  // Full GC, after the parallel marking from roots, before reference
  // processing: the GC workers read the regions it made live
  // (TeraHeapLiveness), then regions whose summarized cards marking skipped
  // are checked (TeraHeapBackwardTargets), and what they lead to is marked.
  static void marked_from_roots();
  // Full GC: called whenever a marking stack runs dry. Pushes onto `cm`'s
  // stacks what H2 leads to next, either the cards of one region that marking
  // made live (not before marked_from_roots) or an object of a traced
  // label waiting to be followed. False if nothing was waiting.
  static bool mark_through_h2(ParCompactionManager* cm);

  // Full GC, adjusting a reference to `obj`: TeraHeap::adjust_pointer, with
  // Parallel's marks. (teraHeapParallel.inline.hpp)
  template <class T> static inline bool adjust_pointer(T* p, oop obj);

  // Minor GC: worker `worker_id` of `workers` scans its share of H2's cards.
  static void scavenge_backward_references(uint worker_id, uint workers);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPPARALLEL_HPP
