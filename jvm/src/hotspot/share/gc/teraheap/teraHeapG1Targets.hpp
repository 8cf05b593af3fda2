/*
 * The G1 regions that H2 refers into from cards a pause does not read.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1TARGETS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1TARGETS_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "runtime/atomic.hpp"
#include "utilities/bitMap.hpp"

class HeapRegion;

// Young and mixed pauses read only H2's dirty and youngergen cards; oldgen
// and summarized cards, whose referents were old, are read by full GCs. The
// Parallel collector moves an old object only in a full GC. G1 also moves
// them in mixed pauses, and in any pause frees a humongous array that nothing
// it tracks refers to. So the G1 regions such a card refers into stay out of
// both: a region joins this set whenever a collector leaves a card oldgen or
// summarized with a referent in it, and stays until the set is built anew:
// by a full GC's adjust step, or by a marking cycle, from the cards of the
// H2 regions it finds live (TeraHeapG1MarkingScan) and the pauses' cards
// meanwhile, installed at Remark. Until then the old set holds, so young
// pauses during the cycle never lose a target.
//
// The oldgen cards of the labels whose groups a pause left in part in H1
// (TeraHeapLeftBehind's pending labels) are read by mixed pauses too, which
// then move those parts to H2. What they refer into is kept apart: such a
// region may be a mixed candidate, but no humongous object in it is eagerly
// reclaimed, for young pauses do not read those cards.
class TeraHeapG1Targets : AllStatic {
  static CHeapBitMap* _regions;   // by G1 region index: from cards no pause reads
  static CHeapBitMap* _pending;   // from the pending labels' oldgen cards, which mixed pauses read
  // The set a marking cycle builds, installed at its Remark.
  static CHeapBitMap* _next_regions;
  static CHeapBitMap* _next_pending;
  static volatile bool _building;
  // What the current young or mixed pause added to _regions, and that pause.
  static CHeapBitMap* _found_in_pause;
  // The optional regions the current pause's pending cards refer into.
  static CHeapBitMap* _stops_optional;
  static uint _pause_gc_id;

public:
  static void initialize(uint g1_regions);

  // From any GC worker: an oldgen or summarized card refers to `obj`, in H1;
  // `read_by_mixed` if the card is a pending label's oldgen one.
  static void add(oop obj, bool read_by_mixed = false);
  // The same, for an oldgen or summarized card of H2 start region `region`:
  // read by mixed pauses if its label is pending and `obj` may move.
  static void add_referent(oop obj, uint region);
  // The same for a card the current pause read, `obj` in one of its optional
  // regions: its increments do not read H2's cards again, so they stop at
  // that region. Later mixed pauses read a pending label's card again, and
  // may take the region then; another card bars them from it.
  static void add_optional_referent(oop obj, uint region);
  // Whether the current pause's increments of optional regions stop at `hr`.
  static bool stops_optional(const HeapRegion* hr);
  // Some pause does not read a card that refers into `hr`.
  static bool contains(const HeapRegion* hr);
  // Mixed pauses do not read a card that refers into `hr`: never a candidate.
  static bool bars_mixed(const HeapRegion* hr);
  // A young or mixed pause, once its collection set is chosen: what it adds
  // from now on is also noted as found in it.
  static void pause_begins();
  // What G1's candidate checks see: bars_mixed, less what the current pause
  // found. A candidate H2 came to refer into during a pause stays in G1's
  // list until the next mixed pause gives it up (or an increment of optional
  // regions stops at it), and G1 checks its list whenever it takes regions
  // from it (G1CollectionSetCandidates::verify, in debug builds).
  static bool bars_candidates(const HeapRegion* hr);
  // Only the pending labels' cards refer into `hr`.
  static bool only_pending(const HeapRegion* hr) { return !bars_mixed(hr) && contains(hr); }
  // Before a full GC's adjust step adds what it finds (a marking cycle's set
  // is abandoned).
  static void clear();
  // A marking cycle: from its concurrent start, every target is also added
  // to the set it builds; at its Remark, once every live H2 region has been
  // read, that set replaces the old one. A cycle undone or abandoned
  // leaves the old set.
  static void begin_building();
  static void install_built();
  static void abandon_building() { Atomic::store(&_building, false); }
  static size_t count() { return _regions->count_one_bits(); }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1TARGETS_HPP
