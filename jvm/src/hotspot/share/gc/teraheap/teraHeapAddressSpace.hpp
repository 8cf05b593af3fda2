/*
 * H2's address range and its cut into regions.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPADDRESSSPACE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPADDRESSSPACE_HPP

#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"
#include "utilities/globalDefinitions.hpp"

// Where H2 is, and which region an address falls in: the arithmetic every
// part of the module needs. It includes nothing of the module, so that
// components ask it rather than the facade (teraHeap.hpp), which sits on top.
class TeraHeapAddressSpace : AllStatic {
  static MemRegion _h2;
  static size_t    _region_words;

public:
  // Once, when H2 is mapped, before anything asks.
  static void initialize(MemRegion h2, size_t region_bytes);

  static MemRegion range() { return _h2; }
  static bool contains(const void* p) { return _h2.contains(p); }

  static size_t region_words() { return _region_words; }
  static uint region_count() { return (uint)(_h2.word_size() / _region_words); }
  static HeapWord* region_bottom(uint i) { return _h2.start() + i * _region_words; }
  // The region p lies in (for an object that spans regions, not its first).
  static uint region_index(const void* p) {
    return (uint)(pointer_delta(p, _h2.start(), 1) / (_region_words * HeapWordSize));
  }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPADDRESSSPACE_HPP
