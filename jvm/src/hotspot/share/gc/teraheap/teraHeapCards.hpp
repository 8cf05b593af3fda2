/*
 * H2's part of the card table, read and reset at every collection.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDS_HPP

#include "gc/shared/cardTable.hpp"
#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"

class TeraHeapRegions;
class TeraHeapTablePages;

// H2's part of the collector's card table. Under Parallel the table spans the
// whole heap reservation, so every store into an H2 object already dirties
// an H2 card through the stock post-write barrier: no barrier changes. The
// collectors read H2's cards, never its objects, to find H1 objects that H2
// refers to (backward references). Card states:
//   clean       no field in the card refers to H1
//   dirty       a mutator wrote a field (or the object was just moved)
//   youngergen  some field refers to the young generation
//   oldgen      fields refer to the old generation, none to the young one
//               (or to another label's regions)
//   summarized  fields refer to old objects that the region remembers
//               (TeraHeapBackwardTargets), and to nothing else outside it
//
// This file keeps the table; what each collection does with it is in
// teraHeapCardScavenge (minor GCs), teraHeapLiveness (full GC marking) and
// teraHeapCardAdjust (the full GC's adjust step), which walk a region's cards
// with TeraHeapCardWalker.
class TeraHeapCards : AllStatic {
  static TeraHeapTablePages* _pages;
  static CardTable::CardValue* _byte_map_base;   // as the collector's barrier computes a card

public:
  typedef CardTable::CardValue CardValue;
  static const CardValue clean = (CardValue)-1;   // CardTable::clean_card
  static const CardValue dirty = 0;               // CardTable::dirty_card, what the barrier writes
  static const CardValue youngergen = 3;   // PSCardTable::youngergen_card
  static const CardValue oldgen = 5;
  static const CardValue summarized = 9;

  // H2's cards are reserved with the card table and committed only for
  // regions in use (TeraHeapTablePages): commit before a region is filled,
  // release once it is freed. Of those, DRAM backs only the pages of cards
  // written since they were last found clean (TeraHeapCardResidency).
  // `cards` is where the collector's barrier marks the card of h2.start().
  static void initialize(MemRegion h2, CardValue* cards);
  static void commit(MemRegion mr);
  static void release(MemRegion mr, const TeraHeapRegions* regions);
  static size_t committed_bytes();
  static size_t resident_bytes();
  static void dirty_range(MemRegion mr);
  // Dirties the card of the field at `p` alone if its page of cards is
  // backed; false if not, so that the caller defers it to
  // dirty_field_on_unbacked_page. Any GC worker.
  static bool dirty_field_if_backed(const void* p);
  // Dirties the card of the field at `p` on a page of cards that nothing
  // backed: the page is first filled with clean cards. No other thread may
  // write H2's cards meanwhile.
  static void dirty_field_on_unbacked_page(const void* p);
  // Reads which pages of cards the kernel backs for the regions in use from
  // the k-th to before the end-th: before a collection, or heap verification,
  // reads any of their cards.
  static void refresh(TeraHeapRegions* regions, int k, int end);
  // Any H2 card's state, once refreshed.
  static CardValue value(const void* p);

  // The card of an H2 address, as the barrier finds it, and the address a
  // card stands for. (Not the collector's CardTable::byte_for: G1's table
  // covers H1 alone, and its debug checks would refuse H2.)
  static CardValue* card_for(const void* p) { return _byte_map_base + (uintptr_t(p) >> CardTable::card_shift); }
  static HeapWord* addr_for(const CardValue* card) {
    return (HeapWord*)(pointer_delta(card, _byte_map_base, sizeof(CardValue)) << CardTable::card_shift);
  }
  // The cards of mr: from the first, to past the last.
  static CardValue* first_card(MemRegion mr);
  static CardValue* end_card(MemRegion mr);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDS_HPP
