/*
 * The G1 old regions that hold advised roots a pause left in H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapG1RootRegions.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapRoots.inline.hpp"
#include "gc/teraheap/teraheap_globals.hpp"
#include "logging/log.hpp"
#include "memory/allocation.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/safepoint.hpp"

size_t* TeraHeapG1RootRegions::_bytes = NULL;
uint    TeraHeapG1RootRegions::_length = 0;
uint    TeraHeapG1RootRegions::_regions = 0;

void TeraHeapG1RootRegions::initialize(uint g1_regions) {
  _length = g1_regions;
  _bytes = NEW_C_HEAP_ARRAY(size_t, g1_regions, mtGC);
  for (uint i = 0; i < _length; i++) {
    _bytes[i] = 0;
  }
}

void TeraHeapG1RootRegions::clear() {
  if (_regions == 0) {
    return;
  }
  for (uint i = 0; i < _length; i++) {
    _bytes[i] = 0;
  }
  _regions = 0;
}

void TeraHeapG1RootRegions::find() {
  assert(SafepointSynchronize::is_at_safepoint(), "Remark");
  clear();
  if (!TeraHeapG1MoveInPauses) {
    return;
  }
  G1CollectedHeap* const g1h = G1CollectedHeap::heap();
  size_t roots = 0;
  size_t total = 0;
  TeraHeapRoots::advised_in_h1_do([&](oop root) {
    HeapRegion* const hr = g1h->heap_region_containing(root);
    // Humongous regions are never candidates; a region H2 refers into from
    // cards pauses do not read must not be one.
    if (!hr->is_old() || hr->is_archive() || TeraHeapG1Targets::contains(hr)) {
      return;
    }
    const size_t bytes = root->size() * HeapWordSize;
    if (_bytes[hr->hrm_index()] == 0) {
      _regions++;
    }
    _bytes[hr->hrm_index()] += bytes;
    roots++;
    total += bytes;
  });
  log_debug(gc, teraheap)("Advised roots left in H1: " SIZE_FORMAT " (" SIZE_FORMAT "K) in %u old regions, for mixed pauses",
                          roots, total / K, _regions);
}

size_t TeraHeapG1RootRegions::bytes(const HeapRegion* hr) {
  return _regions == 0 ? 0 : _bytes[hr->hrm_index()];
}
