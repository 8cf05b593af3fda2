/*
 * What backs a region in use: its storage in H2's file and its side tables in DRAM.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBacking.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapStorageReleaser.hpp"

TeraHeapBacking::TeraHeapBacking(TeraHeapFile* file, uint regions) :
  _file(file),
  _releaser(new TeraHeapStorageReleaser(file, TeraHeapAddressSpace::region_words() * HeapWordSize, regions)) {}

bool TeraHeapBacking::bring_up(uint i) {
  // A freed region's storage went back to the file system, or is queued to
  // (and without preallocation it never had any); take it back before writing.
  _releaser->reclaim(i);
  HeapWord* const bottom = TeraHeapAddressSpace::region_bottom(i);
  const size_t offset = pointer_delta(bottom, TeraHeapAddressSpace::range().start(), 1);
  const size_t bytes = TeraHeapAddressSpace::region_words() * HeapWordSize;
  if (!_file->reserve_storage(offset, bytes)) {
    // The room may be in storage that freed regions are still giving back.
    _releaser->drain();
    if (!_file->reserve_storage(offset, bytes)) {
      // A failed allocation may have kept part of the range: give it back.
      _releaser->release(i, i + 1);
      return false;
    }
  }
  const MemRegion mr(bottom, TeraHeapAddressSpace::region_words());
  TeraHeapCards::commit(mr);
  TeraHeapObjectStarts::commit(mr);
  return true;
}

void TeraHeapBacking::take_down(uint first, uint end, const TeraHeapRegions* regions) {
  const MemRegion mr(TeraHeapAddressSpace::region_bottom(first), TeraHeapAddressSpace::region_bottom(end));
  TeraHeapCards::release(mr, regions);
  TeraHeapObjectStarts::release(mr, regions);
  for (uint i = first; i < end; i++) {
    TeraHeapBackwardTargets::clear(i);
  }
  _releaser->release(first, end);
}

void TeraHeapBacking::threads_do(ThreadClosure* tc) const {
  _releaser->threads_do(tc);
}
