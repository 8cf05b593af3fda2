/*
 * Walking a region's cards, and the fields each card covers.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDWALKER_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDWALKER_INLINE_HPP

#include "gc/shared/cardTable.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/allStatic.hpp"
#include "memory/iterator.inline.hpp"
#include "memory/memRegion.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"

// How every collection reads H2's cards: a region at a time, card by card,
// with the objects that reach into each card, skipping what is clean.
class TeraHeapCardWalker : AllStatic {
  // For a store into an object's field the barrier marks the card of the
  // object's header, not of the field (object arrays excepted). A dirty card
  // therefore stands for every card of the objects whose headers it holds: mark
  // those too, so that each card is then scanned on its own, every field once.
  static void spread_imprecise_mark(HeapWord* obj, HeapWord* card_start, HeapWord* card_end);

  // walk and walk_concurrently: from `from`, a card's start in start region r.
  // Without `spread`, no card is written.
  template <typename Wanted, typename ScanCard>
  static void walk_from(TeraHeapRegions* regions, uint r, HeapWord* from, HeapWord* top_limit, bool give_back,
                        bool spread, Wanted wanted, ScanCard scan_card);

public:
  // Walks the cards of start region r (an object that spans regions is walked
  // from its first), calling `scan_card` on each card `wanted` selects, with an
  // object that reaches into it. Pages of cards the kernel does not back are
  // all clean and skipped; with `give_back`, so are pages found all clean, which
  // are then given back (TeraHeapCardResidency). The region's residency must
  // have been refreshed in this pause. With `top`, the walk stops there (a
  // top the region had before a mover began claiming space in it).
  template <typename Wanted, typename ScanCard>
  static void walk(TeraHeapRegions* regions, uint r, bool give_back, Wanted wanted, ScanCard scan_card,
                   HeapWord* top = NULL) {
    walk_from(regions, r, regions->bottom(r), top, give_back, true, wanted, scan_card);
  }
  // The same while the program runs (a concurrent marking task), from the
  // card at `from`: cards are only read, and a dirty card stands for itself
  // alone (the fields an imprecise mark leaves out were written since the
  // last pause). No page is given back.
  template <typename Wanted, typename ScanCard>
  static void walk_concurrently(TeraHeapRegions* regions, uint r, HeapWord* from, Wanted wanted, ScanCard scan_card) {
    walk_from(regions, r, from, NULL, false, false, wanted, scan_card);
  }
  // Iterates the fields within `mr` of the objects from `obj` on.
  template <typename Closure>
  static void iterate_fields(HeapWord* obj, MemRegion mr, Closure* cl);
  // A pause's read of H2's cards as roots: worker `worker_id` of `workers`
  // walks its run of the (address-ordered) regions in use, so that no card is
  // shared and residency is read in few calls. `each_region(r)` runs first for
  // each region; then each card `wanted` selects has its fields read with `cl`
  // (a TeraHeapCardClosure), which sets the state the card takes, and
  // `after_card` runs.
  template <typename Wanted, typename Closure, typename EachRegion, typename AfterCard>
  static void read_roots(TeraHeapRegions* regions, uint worker_id, uint workers, Wanted wanted, Closure* cl,
                         EachRegion each_region, AfterCard after_card);
  // What a young collection reads.
  static bool is_young_root(TeraHeapCards::CardValue v) {
    return v == TeraHeapCards::dirty || v == TeraHeapCards::youngergen;
  }
};

inline void TeraHeapCardWalker::spread_imprecise_mark(HeapWord* obj, HeapWord* card_start, HeapWord* card_end) {
  for (HeapWord* p = obj; p < card_end; ) {
    oop o = cast_to_oop(p);
    HeapWord* const end = p + o->size();
    if (p >= card_start && end > card_end && o->is_instance()) {
      TeraHeapCards::dirty_range(MemRegion(card_end, end));
    }
    p = end;
  }
}

template <typename Wanted, typename ScanCard>
void TeraHeapCardWalker::walk_from(TeraHeapRegions* regions, uint r, HeapWord* from, HeapWord* top_limit,
                                   bool give_back, bool spread, Wanted wanted, ScanCard scan_card) {
  HeapWord* const bottom = regions->bottom(r);
  HeapWord* const top = top_limit != NULL ? MIN2(top_limit, regions->top(r)) : regions->top(r);
  if (top <= from) {
    return;
  }
  // The cards of the regions r spans are read by this walk alone.
  HeapWord* const span_end = bottom + align_up(pointer_delta(top, bottom), regions->region_words());
  // An object start at or before the current card.
  HeapWord* obj = from == bottom ? bottom : TeraHeapObjectStarts::object_start(from, bottom);
  for (HeapWord* page_start = from; page_start < top; ) {
    CardTable::CardValue* const page = align_down(TeraHeapCards::card_for(page_start), os::vm_page_size());
    HeapWord* const page_end = TeraHeapCards::addr_for(page + os::vm_page_size());
    HeapWord* const to = MIN2(top, page_end);
    if (!TeraHeapCardResidency::is_resident(page)) {
      // All clean up to the next page that may hold anything.
      CardTable::CardValue* const next = TeraHeapCardResidency::next_resident(page, TeraHeapCards::card_for(top - 1) + 1);
      page_start = next == NULL ? top : MAX2(to, TeraHeapCards::addr_for(next));
      continue;
    }
    if (give_back && TeraHeapCards::addr_for(page) >= bottom && page_end <= span_end &&
        TeraHeapCardResidency::give_back_if_clean(page, TeraHeapCards::card_for(to - 1) + 1)) {
      page_start = to;
      continue;
    }
    for (HeapWord* card_start = page_start; card_start < to; card_start += CardTable::card_size_in_words) {
      CardTable::CardValue* card = TeraHeapCards::card_for(card_start);
      // Most of a moved group's cards are clean: skip them a word at a time,
      // never reading past `to` (the next page of cards may not be mapped).
      const size_t cards_per_word = sizeof(uintptr_t);
      while (card_start + cards_per_word * CardTable::card_size_in_words <= to && is_aligned(card, cards_per_word) &&
             *(uintptr_t*)card == (uintptr_t)CardTable::clean_card_row_val()) {
        card += cards_per_word;
        card_start += cards_per_word * CardTable::card_size_in_words;
      }
      if (card_start >= to || !wanted(*card)) {
        continue;
      }
      HeapWord* const card_end = MIN2(card_start + CardTable::card_size_in_words, top);
      // The current object may still cover the card (a large array): then it
      // is the one. Otherwise jump with the start table when far behind, or walk.
      HeapWord* obj_end = obj + cast_to_oop(obj)->size();
      if (obj_end <= card_start && pointer_delta(card_start, obj_end) > 8 * CardTable::card_size_in_words) {
        obj = TeraHeapObjectStarts::object_start(card_start, bottom);
        obj_end = obj + cast_to_oop(obj)->size();
      }
      while (obj_end <= card_start) {
        obj = obj_end;
        obj_end = obj + cast_to_oop(obj)->size();
      }
      if (spread && *card == TeraHeapCards::dirty) {
        spread_imprecise_mark(obj, card_start, card_end);
      }
      scan_card(card, MemRegion(card_start, card_end), obj);
    }
    page_start = to;
  }
}

template <typename Closure>
void TeraHeapCardWalker::iterate_fields(HeapWord* obj, MemRegion mr, Closure* cl) {
  while (obj < mr.end()) {
    oop o = cast_to_oop(obj);
    o->oop_iterate(cl, mr);
    obj += o->size();
  }
}

template <typename Wanted, typename Closure, typename EachRegion, typename AfterCard>
void TeraHeapCardWalker::read_roots(TeraHeapRegions* regions, uint worker_id, uint workers, Wanted wanted, Closure* cl,
                                    EachRegion each_region, AfterCard after_card) {
  const int n = regions->in_use_count();
  const int k_from = (int)((size_t)n * worker_id / workers);
  const int k_end = (int)((size_t)n * (worker_id + 1) / workers);
  TeraHeapCards::refresh(regions, k_from, k_end);
  for (int k = k_from; k < k_end; k++) {
    const uint r = regions->in_use_region(k);
    each_region(r);
    walk(regions, r, true, wanted,
         [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
           if (*card == TeraHeapCards::dirty) {
             TeraHeapBackwardTargets::note_written(r);
             regions->note_written(r);
           }
           cl->start_card(mr);
           iterate_fields(obj, mr, cl);
           // Written before deferred copies are made: copying can only raise
           // the card to youngergen again.
           *card = cl->state();
           after_card();
         });
  }
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDWALKER_INLINE_HPP
