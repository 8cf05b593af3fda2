/*
 * H2's address range and its cut into regions.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "utilities/debug.hpp"

MemRegion TeraHeapAddressSpace::_h2;
size_t    TeraHeapAddressSpace::_region_words = 0;

void TeraHeapAddressSpace::initialize(MemRegion h2, size_t region_bytes) {
  assert(_region_words == 0, "once");
  assert(h2.byte_size() % region_bytes == 0, "whole regions");
  _h2 = h2;
  _region_words = region_bytes / HeapWordSize;
}
