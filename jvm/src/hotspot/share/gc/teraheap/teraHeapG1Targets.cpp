/*
 * The G1 regions that H2 refers into from cards a pause does not read.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/heapRegion.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "memory/allocation.hpp"
#include "utilities/bitMap.inline.hpp"

// A bitmap lives as long as the JVM: allocated once, through CHeapObj.
struct TeraHeapG1TargetBits : public CHeapObj<mtGC> {
  CHeapBitMap bits;
  TeraHeapG1TargetBits(BitMap::idx_t size) : bits(size, mtGC) {}
};

CHeapBitMap* TeraHeapG1Targets::_regions = NULL;
CHeapBitMap* TeraHeapG1Targets::_pending = NULL;

void TeraHeapG1Targets::initialize(uint g1_regions) {
  _regions = &(new TeraHeapG1TargetBits(g1_regions))->bits;
  _pending = &(new TeraHeapG1TargetBits(g1_regions))->bits;
}

void TeraHeapG1Targets::add(oop obj, bool read_by_mixed) {
  const uint index = G1CollectedHeap::heap()->addr_to_region(cast_from_oop<HeapWord*>(obj));
  CHeapBitMap* const bits = read_by_mixed ? _pending : _regions;
  // Most cards refer to a few regions: read before writing the shared word.
  if (!bits->at(index)) {
    bits->par_set_bit(index);
  }
}

bool TeraHeapG1Targets::contains(const HeapRegion* hr) {
  return _regions->at(hr->hrm_index()) || _pending->at(hr->hrm_index());
}

bool TeraHeapG1Targets::bars_mixed(const HeapRegion* hr) {
  return _regions->at(hr->hrm_index());
}
