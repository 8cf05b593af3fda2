/*
 * Where objects start in H2, per block.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "gc/teraheap/teraHeapTablePages.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/os.hpp"
#include "services/memTracker.hpp"
#include "utilities/align.hpp"

// Entries are 2 bytes per 32 KB block: the table's page covers 64 MB of H2.
static const int table_shift = 14;   // log2(H2 bytes per table byte)

ReservedSpace TeraHeapObjectStarts::_rs;
TeraHeapObjectStarts::Entry* TeraHeapObjectStarts::_entries = NULL;
TeraHeapTablePages* TeraHeapObjectStarts::_pages = NULL;

void TeraHeapObjectStarts::initialize() {
  const MemRegion h2 = TeraHeapAddressSpace::range();
  STATIC_ASSERT(((size_t)1 << block_shift) / sizeof(Entry) == ((size_t)1 << table_shift));
  STATIC_ASSERT(block_words - 1 < none);
  const size_t bytes = align_up(h2.byte_size() >> table_shift, os::vm_page_size());
  _rs = ReservedSpace(bytes);
  if (!_rs.is_reserved()) {
    TeraHeapStartupError::fail("cannot reserve " SIZE_FORMAT "K of address space for H2's object start table: "
                               "lower -XX:TeraHeapSize", bytes / K);
  }
  MemTracker::record_virtual_memory_type((address)_rs.base(), mtGC);
  _entries = (Entry*)_rs.base();
  _pages = new TeraHeapTablePages(h2, _rs.base(), table_shift, 0xFF, false, NULL,
                                  "TeraHeap: object start table for H2");
}

void TeraHeapObjectStarts::commit(MemRegion mr) {
  _pages->commit(mr);
}

HeapWord* TeraHeapObjectStarts::object_start(HeapWord* addr, HeapWord* bottom) {
  assert(TeraHeapAddressSpace::contains(addr) && bottom <= addr, "in H2, in the region");
  size_t b = block_of(addr);
  HeapWord* start = _entries[b] == none ? NULL : block_start(b) + _entries[b];
  if (start == NULL || start > addr) {
    // Some object before this block reaches into it, or starts before the
    // recorded one: walk from the nearest start in a block before, or from the
    // region's bottom, where an object always starts.
    const size_t first = block_of(bottom);
    start = bottom;
    while (b > first) {
      b--;
      if (_entries[b] != none) {
        start = MAX2(bottom, block_start(b) + _entries[b]);
        break;
      }
    }
  }
  for (HeapWord* next = start + cast_to_oop(start)->size(); next <= addr; next += cast_to_oop(next)->size()) {
    start = next;
  }
  return start;
}

void TeraHeapObjectStarts::release(MemRegion mr, const TeraHeapRegions* regions) {
  memset(&_entries[block_of(mr.start())], 0xFF, (mr.byte_size() >> block_shift) * sizeof(Entry));
  _pages->uncommit(mr, regions);
}

size_t TeraHeapObjectStarts::committed_bytes() {
  return _pages->committed_bytes();
}
