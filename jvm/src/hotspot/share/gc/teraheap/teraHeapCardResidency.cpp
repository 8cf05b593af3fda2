/*
 * Which pages of H2's card table hold anything.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCardFaults.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "gc/teraheap/teraHeapPageMap.hpp"
#include "logging/log.hpp"
#include "memory/allocation.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"
#include "utilities/bitMap.inline.hpp"
#include "utilities/powerOfTwo.hpp"

CardTable::CardValue* TeraHeapCardResidency::_base = NULL;
bool TeraHeapCardResidency::_lazy = false;
CHeapBitMap* TeraHeapCardResidency::_resident = NULL;
int TeraHeapCardResidency::_page_shift = 0;

// The bitmap's home (a bitmap itself is not a C-heap object).
class TeraHeapResidentBits : public CHeapObj<mtGC> {
public:
  CHeapBitMap bits;
  TeraHeapResidentBits(size_t pages) : bits(pages, mtGC) {}
};

void TeraHeapCardResidency::initialize(CardTable::CardValue* h2_cards, size_t bytes) {
  assert(is_aligned(h2_cards, os::vm_page_size()), "H2's cards start a page");
  _base = h2_cards;
  _page_shift = log2i_exact(os::vm_page_size());
  _resident = &(new TeraHeapResidentBits(align_up(bytes, os::vm_page_size()) / os::vm_page_size()))->bits;
  _lazy = TeraHeapPageMap::initialize();
  if (!_lazy) {
    log_info(gc, teraheap)("the kernel's page map is not readable: H2's card table is kept in DRAM for every "
                           "region in use, and every collection reads all of it");
  }
}

static void page_mapped_in(char* page) {
  TeraHeapCardResidency::note_written((CardTable::CardValue*)page, (CardTable::CardValue*)page + 1);
}

void TeraHeapCardResidency::watch(char* from, char* to) {
  if (lazy()) {
    TeraHeapCardFaults::start(from, to, page_mapped_in);
  }
}

void TeraHeapCardResidency::refresh(const CardTable::CardValue* from, const CardTable::CardValue* to) {
  if (!lazy() || from >= to || TeraHeapCardFaults::serving()) {
    return;
  }
  const size_t first = page_of(from);
  const size_t end = page_of(to - 1) + 1;
  // 2048 pages, 8 MB of cards, 4 GB of H2 per read: the calls, not the
  // entries, were most of the cost at 512 per read.
  bool backed[TeraHeapPageMap::max_pages];
  for (size_t page = first; page < end; page += TeraHeapPageMap::max_pages) {
    const size_t n = MIN2(TeraHeapPageMap::max_pages, end - page);
    TeraHeapPageMap::resident(page_address(page), n, backed);
    for (size_t i = 0; i < n; i++) {
      // Mostly unchanged: an atomic write only where it changes.
      if (_resident->at(page + i) != backed[i]) {
        _resident->par_at_put(page + i, backed[i]);
      }
    }
  }
}

CardTable::CardValue* TeraHeapCardResidency::next_resident(const CardTable::CardValue* card,
                                                           const CardTable::CardValue* end) {
  if (card >= end) {
    return NULL;
  }
  const size_t last = page_of(end - 1) + 1;
  const size_t page = _resident->get_next_one_offset(page_of(card), last);
  return page < last ? (CardTable::CardValue*)page_address(page) : NULL;
}

void TeraHeapCardResidency::note_written(const CardTable::CardValue* from, const CardTable::CardValue* to) {
  if (from >= to) {
    return;
  }
  for (size_t page = page_of(from); page <= page_of(to - 1); page++) {
    if (!_resident->at(page)) {
      _resident->par_set_bit(page);
    }
  }
}

void TeraHeapCardResidency::pages_changed(char* from, char* to, bool committed) {
  assert(is_aligned(from, os::vm_page_size()) && is_aligned(to, os::vm_page_size()), "whole pages");
  // Atomically: movers note pages written beside the region being opened.
  if (!committed) {
    _resident->par_at_put_range(page_of(from), page_of(to), false);   // never to be read
  } else if (lazy()) {
    _resident->par_at_put_range(page_of(from), page_of(to), false);   // untouched: all clean
  } else {
    _resident->par_at_put_range(page_of(from), page_of(to), true);
  }
}

bool TeraHeapCardResidency::give_back_if_clean(CardTable::CardValue* page, const CardTable::CardValue* end) {
  assert(is_aligned(page, os::vm_page_size()), "a page");
  assert(end > page && end <= page + os::vm_page_size(), "within the page");
  const CardTable::CardValue* card = page;
  const uintptr_t clean_row = (uintptr_t)CardTable::clean_card_row_val();
  for (; card + sizeof(uintptr_t) <= end; card += sizeof(uintptr_t)) {
    if (*(const uintptr_t*)card != clean_row) {
      return false;
    }
  }
  for (; card < end; card++) {
    if (*card != CardTable::clean_card_val()) {
      return false;
    }
  }
  if (lazy() && TeraHeapPageMap::discard((char*)page)) {
    _resident->par_clear_bit(page_of(page));
  }
  return true;
}

size_t TeraHeapCardResidency::resident_bytes() {
  return _resident->count_one_bits() * os::vm_page_size();
}
