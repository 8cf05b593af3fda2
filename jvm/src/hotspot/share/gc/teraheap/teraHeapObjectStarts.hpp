/*
 * Where objects start in H2, per block.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPOBJECTSTARTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPOBJECTSTARTS_HPP

#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"
#include "memory/virtualspace.hpp"

class TeraHeapRegions;
class TeraHeapTablePages;

// Where objects start in H2, so that a card can be read from the first object
// that reaches into it. One 16-bit entry per 32 KB block of H2: the word
// offset of an object that starts in the block, or `none`. The first start
// recorded stays: mostly the block's first object, but movers filling
// buffers that meet in a block may record out of order, and a lookup below
// the entry walks from an earlier block instead, or from the region's bottom,
// where an object always starts: a lookup never leaves the region. 64 KB per GB of H2 in
// use (64 MB per TB), for a lookup that walks at most one block of object
// headers: a card is looked up only when a collector must read it.
class TeraHeapObjectStarts : AllStatic {
  typedef uint16_t Entry;
  static const Entry none = 0xFFFF;
  static const int block_shift = 15;
  static const size_t block_words = ((size_t)1 << block_shift) / HeapWordSize;

  static ReservedSpace       _rs;
  static Entry*              _entries;
  static TeraHeapTablePages* _pages;

  static size_t block_of(const void* p) {
    return pointer_delta(p, TeraHeapAddressSpace::range().start(), 1) >> block_shift;
  }
  static HeapWord* block_start(size_t b) { return TeraHeapAddressSpace::range().start() + b * block_words; }

public:
  static void initialize();

  // Before a region is filled, and after it is freed.
  static void commit(MemRegion mr);
  static void release(MemRegion mr, const TeraHeapRegions* regions);

  // An object was placed at p. Any GC worker: two racing over an entry both
  // write a start in its block.
  static void record(HeapWord* p) {
    const size_t b = block_of(p);
    if (_entries[b] == none) {
      _entries[b] = (Entry)pointer_delta(p, block_start(b));
    }
  }
  // The start of the object that covers addr, which must be inside a filled
  // part of H2, in the region (or multi-region object) starting at bottom.
  static HeapWord* object_start(HeapWord* addr, HeapWord* bottom);

  static size_t committed_bytes();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPOBJECTSTARTS_HPP
