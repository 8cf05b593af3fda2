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

class ParCompactionManager;
class PSPromotionManager;
class TeraHeapRegions;

// H2's part of the Parallel collector's card table. The table spans the
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
class TeraHeapCards : AllStatic {
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
  static void initialize(MemRegion h2);
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

  // Minor GC: worker `worker_id` of `workers` scans the dirty and youngergen
  // cards of its share of the regions in use (whole regions, so no card is
  // shared between threads), scavenges young referents and records links
  // between H2 regions.
  static void scavenge(TeraHeapRegions* regions, PSPromotionManager* pm, uint worker_id, uint workers);

  // Full GC: the non-clean cards of `region`, a live one, are a source of
  // roots; its summarized cards may be left for TeraHeapBackwardTargets::confirm.
  static void mark(TeraHeapRegions* regions, uint region, ParCompactionManager* cm);
  // Full GC: marks what the summarized cards of `region` refer to.
  static void mark_summarized(TeraHeapRegions* regions, uint region, ParCompactionManager* cm);
  // Full GC, after marking, before the adjust step: every object of start
  // region `region` that `is_dead` calls dead, and that reaches into a card
  // that is not clean, becomes a filler of its size (so object starts stay
  // valid); what its fields referred to is then no collector's concern.
  // Returns how many. The VM thread.
  static size_t fill_dead_objects(TeraHeapRegions* regions, uint region, bool is_dead(oop));

  // Full GC, after the new addresses are known: updates the H1 referents of
  // every non-clean card and sets each card's state from what it refers to,
  // summarizing those it can. A summarized card is read again only if an
  // object its region remembers moves. On all GC workers, a region at a time.
  static void adjust(TeraHeapRegions* regions);
  // How many cards this full GC's marking and adjust step read, by state.
  static void log_cards_read();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDS_HPP
