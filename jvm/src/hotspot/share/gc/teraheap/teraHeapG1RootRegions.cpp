/*
 * The G1 old regions whose data mixed pauses move to H2.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapG1RootRegions.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
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

void TeraHeapG1RootRegions::count(const HeapRegion* hr, size_t bytes) {
  if (_bytes[hr->hrm_index()] == 0) {
    _regions++;
  }
  _bytes[hr->hrm_index()] = MIN2(_bytes[hr->hrm_index()] + bytes, hr->capacity());
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
    // cards mixed pauses do not read must not be one.
    if (!hr->is_old() || hr->is_archive() || TeraHeapG1Targets::bars_mixed(hr)) {
      return;
    }
    const size_t bytes = root->size() * HeapWordSize;
    count(hr, bytes);
    roots++;
    total += bytes;
  });
  const uint root_regions = _regions;
  // The regions only the pending labels' oldgen cards refer into hold what
  // pauses left of their groups: counted whole, for what of it is the groups'
  // is known only by moving it.
  uint left_behind = 0;
  if (TeraHeapLeftBehind::any_pending()) {
    for (uint i = 0; i < g1h->max_regions(); i++) {
      HeapRegion* const hr = g1h->region_at_or_null(i);
      if (hr != NULL && hr->is_old() && !hr->is_archive() && TeraHeapG1Targets::only_pending(hr)) {
        count(hr, hr->capacity());
        left_behind++;
      }
    }
  }
  log_debug(gc, teraheap)("Advised roots left in H1: " SIZE_FORMAT " (" SIZE_FORMAT "K) in %u old regions; "
                          "%u old regions hold what pauses left of groups; for mixed pauses",
                          roots, total / K, root_regions, left_behind);
}

size_t TeraHeapG1RootRegions::bytes(const HeapRegion* hr) {
  return _regions == 0 ? 0 : _bytes[hr->hrm_index()];
}
