/*
 * Side tables of H2, backed by DRAM only where regions are in use.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapPageMap.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "gc/teraheap/teraHeapTablePages.hpp"
#include "runtime/os.hpp"
#include "services/memTracker.hpp"
#include "utilities/align.hpp"
#include "utilities/bitMap.inline.hpp"

#include <errno.h>

TeraHeapTablePages::TeraHeapTablePages(MemRegion h2, char* table, int block_shift, u_char fill, bool lazy_fill,
                                       PagesChanged changed, const char* name) :
    _h2(h2),
    _table(table),
    _table_bytes(h2.byte_size() >> block_shift),
    _block_shift(block_shift),
    _fill(fill),
    _lazy_fill(lazy_fill),
    _changed(changed),
    _name(name),
    _committed(mtGC) {
  // H2 and the heap after it start at card-table-aligned addresses, so no
  // page of the table is shared with a table of H1's.
  assert(is_aligned(_table, os::vm_page_size()), "H2's table must start a page");
  const size_t bytes = align_up(_table_bytes, os::vm_page_size());
  _committed.initialize(bytes / os::vm_page_size());
  // The whole table is mapped once, without swap reserved for it: a page
  // takes DRAM only when first written, and goes back when discarded.
  // Committing a page is then bookkeeping (and NMT's), and the mapping never
  // splits. Committing by mapping would split it at every edge between pages
  // in use and free ones, and a terabyte H2 of interleaved used and free
  // regions could reach vm.max_map_count: a crash at the next commit.
  if (!TeraHeapPageMap::map_table(_table, bytes)) {
    TeraHeapStartupError::fail("cannot map %s (" SIZE_FORMAT "K of address space): %s", _name, bytes / K,
                               os::strerror(errno));
  }
}

size_t TeraHeapTablePages::page_of(const char* p) const {
  return pointer_delta(p, _table, 1) / os::vm_page_size();
}

char* TeraHeapTablePages::page_address(size_t page) const {
  return _table + page * os::vm_page_size();
}

void TeraHeapTablePages::pages_for(MemRegion mr, size_t* first, size_t* end) const {
  assert(_h2.contains(mr), "a part of H2");
  const char* from = _table + (pointer_delta(mr.start(), _h2.start(), 1) >> _block_shift);
  const char* to = _table + (align_up(pointer_delta(mr.end(), _h2.start(), 1), (size_t)1 << _block_shift) >> _block_shift);
  *first = page_of(from);
  *end = page_of(to - 1) + 1;
}

MemRegion TeraHeapTablePages::h2_range_of_page(size_t page) const {
  const size_t per_page = os::vm_page_size() << _block_shift;
  HeapWord* start = (HeapWord*)((char*)_h2.start() + page * per_page);
  HeapWord* end = (HeapWord*)MIN2((char*)_h2.end(), (char*)start + per_page);
  return MemRegion(start, end);
}

void TeraHeapTablePages::commit(MemRegion mr) {
  size_t first, end;
  pages_for(mr, &first, &end);
  // Runs of pages not committed yet: committing an already committed page
  // would replace it with zeros.
  for (size_t page = first; page < end; ) {
    if (_committed.at(page)) {
      page++;
      continue;
    }
    size_t run_end = page + 1;
    while (run_end < end && !_committed.at(run_end)) {
      run_end++;
    }
    char* const start = page_address(page);
    const size_t bytes = (run_end - page) * os::vm_page_size();
    MemTracker::record_virtual_memory_commit(start, bytes, CALLER_PC);
    if (!_lazy_fill) {
      memset(start, _fill, bytes);
    }
    _committed.set_range(page, run_end);
    if (_changed != NULL) {
      _changed(start, start + bytes, true);
    }
    page = run_end;
  }
}

size_t TeraHeapTablePages::committed_bytes() const {
  return _committed.count_one_bits() * os::vm_page_size();
}

void TeraHeapTablePages::uncommit(MemRegion mr, const TeraHeapRegions* regions) {
  size_t first, end;
  pages_for(mr, &first, &end);
  for (size_t page = first; page < end; page++) {
    if (_committed.at(page) && !regions->any_in_use(h2_range_of_page(page))) {
      char* const start = page_address(page);
      // Read as zeros from now on; the next commit fills the page again.
      TeraHeapPageMap::discard(start);
      if (MemTracker::enabled()) {
        Tracker tracker(Tracker::uncommit);
        tracker.record((address)start, os::vm_page_size());
      }
      _committed.clear_bit(page);
      if (_changed != NULL) {
        _changed(start, start + os::vm_page_size(), false);
      }
    }
  }
}
