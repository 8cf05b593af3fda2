/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCardFaults.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "logging/log.hpp"
#include "memory/allocation.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"
#include "utilities/bitMap.inline.hpp"
#include "utilities/powerOfTwo.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

CardTable::CardValue* TeraHeapCardResidency::_base = NULL;
int TeraHeapCardResidency::_pagemap = -1;
CHeapBitMap* TeraHeapCardResidency::_resident = NULL;
int TeraHeapCardResidency::_page_shift = 0;

// The bitmap's home (a bitmap itself is not a C-heap object).
class TeraHeapResidentBits : public CHeapObj<mtGC> {
public:
  CHeapBitMap bits;
  TeraHeapResidentBits(size_t pages) : bits(pages, mtGC) {}
};

// /proc/self/pagemap: one 64-bit entry per virtual page.
static const uint64_t pagemap_present = (uint64_t)1 << 63;
static const uint64_t pagemap_swapped = (uint64_t)1 << 62;

void TeraHeapCardResidency::initialize(CardTable::CardValue* h2_cards, size_t bytes) {
  assert(is_aligned(h2_cards, os::vm_page_size()), "H2's cards start a page");
  _base = h2_cards;
  _page_shift = log2i_exact(os::vm_page_size());
  _resident = &(new TeraHeapResidentBits(align_up(bytes, os::vm_page_size()) / os::vm_page_size()))->bits;
  _pagemap = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  uint64_t entry;
  if (_pagemap >= 0 && ::pread(_pagemap, &entry, sizeof(entry), 0) != (ssize_t)sizeof(entry)) {
    ::close(_pagemap);
    _pagemap = -1;
  }
  if (_pagemap < 0) {
    log_info(gc, teraheap)("/proc/self/pagemap is not readable: H2's card table is kept in DRAM for every "
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
  const size_t first_vpage = (uintptr_t)page_address(first) >> _page_shift;
  // 16 KB of entries, 64 MB of cards, 128 GB of H2 per read: the calls, not
  // the entries, were most of the cost at 512 per read.
  const size_t batch = 2048;
  uint64_t entries[batch];
  for (size_t page = first; page < end; page += batch) {
    const size_t n = MIN2(batch, end - page);
    const ssize_t got = ::pread(_pagemap, entries, n * sizeof(uint64_t),
                                (off_t)((first_vpage + page - first) * sizeof(uint64_t)));
    for (size_t i = 0; i < n; i++) {
      // An entry the kernel did not give: read the page, which is always right.
      const bool resident = got < (ssize_t)((i + 1) * sizeof(uint64_t)) ||
                            (entries[i] & (pagemap_present | pagemap_swapped)) != 0;
      // Mostly unchanged: an atomic write only where it changes.
      if (_resident->at(page + i) != resident) {
        _resident->par_at_put(page + i, resident);
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
  if (lazy() && ::madvise(page, os::vm_page_size(), MADV_DONTNEED) == 0) {
    _resident->par_clear_bit(page_of(page));
  }
  return true;
}

size_t TeraHeapCardResidency::resident_bytes() {
  return _resident->count_one_bits() * os::vm_page_size();
}
