/*
 * H2's part of the card table, read and reset at every collection.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapTablePages.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"

TeraHeapTablePages* TeraHeapCards::_pages = NULL;
CardTable::CardValue* TeraHeapCards::_byte_map_base = NULL;

void TeraHeapCards::initialize(MemRegion h2, CardValue* cards) {
  assert(clean == CardTable::clean_card_val() && dirty == CardTable::dirty_card_val(),
         "our card values are the card table's");
  _byte_map_base = cards - (uintptr_t(h2.start()) >> CardTable::card_shift);
  TeraHeapCardResidency::initialize(cards, h2.byte_size() >> CardTable::card_shift);
  _pages = new TeraHeapTablePages(h2, (char*)cards, CardTable::card_shift, (u_char)clean,
                                  TeraHeapCardResidency::lazy(), TeraHeapCardResidency::pages_changed,
                                  "TeraHeap: card table for H2");
  TeraHeapCardResidency::watch((char*)cards, (char*)cards + align_up(h2.byte_size() >> CardTable::card_shift,
                                                                     os::vm_page_size()));
}

void TeraHeapCards::commit(MemRegion mr) {
  _pages->commit(mr);
}

size_t TeraHeapCards::committed_bytes() {
  return _pages->committed_bytes();
}

size_t TeraHeapCards::resident_bytes() {
  return TeraHeapCardResidency::resident_bytes();
}

TeraHeapCards::CardValue* TeraHeapCards::first_card(MemRegion mr) {
  return card_for(mr.start());
}

TeraHeapCards::CardValue* TeraHeapCards::end_card(MemRegion mr) {
  return card_for(mr.last()) + 1;
}

void TeraHeapCards::dirty_range(MemRegion mr) {
  CardValue* const first = first_card(mr);
  CardValue* const end = end_card(mr);
  if (end > first) {
    memset(first, dirty, end - first);
  }
  TeraHeapCardResidency::note_written(first, end);
}

bool TeraHeapCards::dirty_field_if_backed(const void* p) {
  CardValue* const card = card_for(p);
  if (!TeraHeapCardResidency::is_resident(card)) {
    return false;
  }
  *card = dirty;
  return true;
}

void TeraHeapCards::dirty_field_on_unbacked_page(const void* p) {
  CardValue* const card = card_for(p);
  // All its cards are clean, but a store would fault in a page of zeros, the
  // dirty value: the adjust step would then read all of its cards.
  if (!TeraHeapCardResidency::is_resident(card)) {
    CardValue* const page = align_down(card, os::vm_page_size());
    memset(page, clean, os::vm_page_size());
    TeraHeapCardResidency::note_written(page, page + 1);
  }
  *card = dirty;
}

void TeraHeapCards::refresh(TeraHeapRegions* regions, int k, int end) {
  // Neighbouring regions' cards in one read of the kernel's page map.
  CardValue* run_from = NULL;
  CardValue* run_to = NULL;
  for (; k < end; k++) {
    const uint r = regions->in_use_region(k);
    if (regions->top(r) == regions->bottom(r)) {
      continue;
    }
    CardValue* const from = first_card(regions->used(r));
    CardValue* const to = end_card(regions->used(r));
    if (run_from != NULL && from >= align_down(run_from, os::vm_page_size()) &&
        from <= align_up(run_to, os::vm_page_size())) {
      run_from = MIN2(run_from, from);
      run_to = MAX2(run_to, to);
      continue;
    }
    TeraHeapCardResidency::refresh(run_from, run_to);
    run_from = from;
    run_to = to;
  }
  TeraHeapCardResidency::refresh(run_from, run_to);
}

TeraHeapCards::CardValue TeraHeapCards::value(const void* p) {
  const CardValue* card = card_for(p);
  return TeraHeapCardResidency::is_resident(card) ? *card : clean;
}

void TeraHeapCards::release(MemRegion mr, const TeraHeapRegions* regions) {
  // Pages shared with a region still in use stay: clean the freed cards on
  // them, without making a page resident that is not.
  CardValue* const first = first_card(mr);
  CardValue* const end = end_card(mr);
  TeraHeapCardResidency::refresh(first, end);
  for (CardValue* from = first; from < end; ) {
    CardValue* const to = MIN2(end, align_up(from + 1, os::vm_page_size()));
    if (TeraHeapCardResidency::is_resident(from)) {
      memset(from, clean, to - from);
    }
    from = to;
  }
  _pages->uncommit(mr, regions);
}
