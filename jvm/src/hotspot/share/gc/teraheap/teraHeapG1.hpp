/*
 * The G1 collector's facade: its hooks that pass G1's own types.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1_HPP

#include "memory/allStatic.hpp"
#include "memory/virtualspace.hpp"
#include "oops/oopsHierarchy.hpp"

class G1CMTask;
class G1CollectionSetCandidates;
class G1FullCollector;
class G1FullGCMarker;
class G1ParScanThreadState;
class G1RegionToSpaceMapper;
class HeapRegion;

// What G1's hooks call, and G1 as the rest of the module sees it
// (TeraHeapCollector). The port is being built (docs/g1.md): H2 is laid out
// below G1's heap, its cards are carved in front of G1's card array, and
// G1's full GC moves groups and keeps H2 as Parallel's does, young and mixed
// pauses read H2's cards, and concurrent marking takes H2's references into
// H1 as roots and frees the H2 regions it does not reach. It runs behind the
// experimental -XX:+TeraHeapG1InProgress until the port is done.
//
// The reservation is [H2 | G1's heap]. G1's region table and side tables
// cover its heap alone; H2's cards lie directly below G1's card array, where
// G1's post-write barrier, which computes a card from the table's biased
// base with no range check, already marks them.
//
// A full GC (G1FullCollector) calls, in this order: full_gc_prepare (after
// its own preparation), marked_from_roots (after its marking task),
// mark_through_h2 (whenever a marker's stacks run dry), collect (after
// marking and its verification), TeraHeap::adjust_pointer from its adjust
// closure (teraHeapG1.inline.hpp), then TeraHeap::adjust_h2 after its adjust
// phase.
class TeraHeapG1 : AllStatic {
  static const void* _h2_cards_end;   // where G1's card array begins

public:
  // The part of the whole heap reservation that G1's heap takes: all but
  // H2's low end.
  static ReservedSpace heap_part(ReservedSpace heap_rs);
  // Maps H2's file over the low end of the whole heap reservation, and
  // reserves H2's cards and G1's card array together. Once the barrier set
  // exists: TeraHeap starts threads of its own.
  static void initialize(ReservedSpace heap_rs);

  // The mapper of G1's card array (`size` bytes, a card per `translation_factor`
  // bytes of heap), directly above H2's cards.
  static G1RegionToSpaceMapper* card_table_mapper(size_t size, size_t translation_factor);

  // True for a card of H2's, which G1's barrier enqueues like its own:
  // refinement and the merge of card logs leave it dirty, for TeraHeap.
  static bool is_h2_card(const void* card) { return card < _h2_cards_end; }

  // Young and mixed pauses, on every evacuation worker after the roots:
  // worker `worker_id` of `workers` reads its share of H2's dirty and
  // youngergen cards, and at a concurrent start all but the clean and
  // summarized ones (TeraHeapG1CardScan).
  static void scan_h2_cards(G1ParScanThreadState* pss, uint worker_id, uint workers);

  // Regions that H2 refers into from cards young pauses do not read
  // (TeraHeapG1Targets): no humongous object in one is eagerly reclaimed.
  static bool is_h2_target(const HeapRegion* hr);
  // Old regions that H2 refers into from cards mixed pauses do not read:
  // never mixed collection set candidates. (Mixed pauses read the oldgen
  // cards of the labels whose groups a pause left in part in H1.) Within a
  // pause, what it found itself is left to the next mixed pause, which gives
  // such candidates up.
  static bool is_mixed_h2_target(const HeapRegion* hr);
  // A mixed pause: candidates H2 came to refer into since they were chosen
  // are given up, as G1 gives up those left at the end of a mixed phase.
  static void drop_h2_target_candidates(G1CollectionSetCandidates* candidates);
  // A mixed pause's optional regions join in increments, after the roots and
  // H2's cards are read: an increment stops at the first one H2 refers into.
  static bool bars_optional_region(const HeapRegion* hr);

  // Young and mixed pauses, once the collection set is chosen, before
  // evacuation (-XX:+TeraHeapG1MoveInPauses): groups advised to move since
  // the last pause move as far as they lie in the collection set. G1's
  // evacuation then sends every reference to an old copy to its H2 copy, as
  // to any object it evacuates; what the H2 copies refer to in the
  // collection set and stays in H1 is on H2's dirty cards, which the same
  // pause reads.
  static void pre_evacuate();

  // A marking cycle (TeraHeapG1Marking; marking itself calls it directly):
  // the concurrent start pause, before evacuation;
  static void marking_begins();
  // the concurrent start pause, if G1 then undoes the cycle (no Remark);
  static void marking_undone();
  // a marking task, out of regions and SATB buffers to drain, reads the H2
  // regions marking found live (TeraHeapG1MarkingScan), and does not
  // terminate while one waits;
  static void read_reached_regions(G1CMTask* task);
  static bool has_reached_regions();
  // Remark, marking complete, before reference processing;
  static void marking_complete();
  // Remark, after reference, weak and class processing: H2's regions that
  // marking did not reach are freed.
  static void marking_done();

  // Full GC.
  static void full_gc_prepare(G1FullCollector* collector);
  // After the marking task from roots, before reference processing: the GC
  // workers read the regions it made live, then the summarized cards of
  // regions whose summary names an object marking did not reach.
  static void marked_from_roots();
  // Pushes onto `marker`'s stacks what H2 leads to next (a live region's
  // cards, or a traced label's object); false if nothing was waiting.
  static bool mark_through_h2(G1FullGCMarker* marker);
  // Marking is over: frees dead regions, moves groups, evacuates labels.
  static void collect();
  // Full GC, adjusting a reference to `obj`: TeraHeap::adjust_pointer, with
  // G1's marks. (teraHeapG1.inline.hpp)
  template <class T> static inline bool adjust_pointer(T* p, oop obj);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1_HPP
