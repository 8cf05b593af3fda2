/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/shared/gcArguments.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapArguments.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapRoots.hpp"
#include "logging/log.hpp"
#include "oops/compressedOops.hpp"
#include "runtime/globals.hpp"
#include "runtime/globals_extension.hpp"

MemRegion     TeraHeap::_h2;
MemRegion     TeraHeap::_h1;
size_t        TeraHeap::_region_size = 0;
TeraHeapFile* TeraHeap::_file = NULL;

size_t TeraHeap::reserved_size() {
  return TeraHeapArguments::h2_reserved_size(HeapAlignment);
}

ReservedSpace TeraHeap::initialize(ReservedSpace heap_rs) {
  assert(EnableTeraHeap, "only with TeraHeap on");
  const size_t reserved = reserved_size();
  ReservedSpace h2_rs = heap_rs.first_part(reserved);
  ReservedSpace h1_rs = heap_rs.last_part(reserved);

  _region_size = TeraHeapRegionSize;
  _file = TeraHeapFile::create(TeraHeapPath, TeraHeapSize);
  _file->map_at(h2_rs.base(), TeraHeapSize);
  _h2 = MemRegion((HeapWord*)h2_rs.base(), TeraHeapSize / HeapWordSize);
  _h1 = MemRegion((HeapWord*)h1_rs.base(), h1_rs.size() / HeapWordSize);
  TeraHeapRoots::initialize();

  log_layout();
  return h1_rs;
}

void TeraHeap::log_layout() {
  log_info(gc, init)("TeraHeap H1: [" PTR_FORMAT ", " PTR_FORMAT ") " TH_SIZE_FORMAT " reserved",
                     p2i(_h1.start()), p2i(_h1.end()), TH_SIZE_ARGS(_h1.byte_size()));
  log_info(gc, init)("TeraHeap H2: [" PTR_FORMAT ", " PTR_FORMAT ") " TH_SIZE_FORMAT " in " SIZE_FORMAT
                     " regions of " TH_SIZE_FORMAT,
                     p2i(_h2.start()), p2i(_h2.end()), TH_SIZE_ARGS(_h2.byte_size()),
                     region_count(), TH_SIZE_ARGS(_region_size));
  log_info(gc, init)("TeraHeap H2 file: %s (%s)", _file->path(),
                     _file->is_named() ? "kept after exit" : "unlinked, removed at exit");
  if (UseCompressedOops) {
    log_info(gc, init)("TeraHeap compressed oops: on, %s (H1 + H2 fit the " TH_SIZE_FORMAT " range)",
                       CompressedOops::mode_to_string(CompressedOops::mode()),
                       TH_SIZE_ARGS((size_t)OopEncodingHeapMax));
  } else if (!FLAG_IS_DEFAULT(UseCompressedOops)) {
    log_info(gc, init)("TeraHeap compressed oops: off (-XX:-UseCompressedOops)");
  } else {
    log_info(gc, init)("TeraHeap compressed oops: off (H1 + H2 = " TH_SIZE_FORMAT " do not fit the "
                       TH_SIZE_FORMAT " range with room for H1)",
                       TH_SIZE_ARGS(_h1.byte_size() + _h2.byte_size()),
                       TH_SIZE_ARGS((size_t)OopEncodingHeapMax));
  }
}

TeraHeapStats TeraHeap::stats() {
  TeraHeapStats s;
  s.capacity_bytes = _h2.byte_size();
  // Nothing is moved into H2 yet: moving lands with the full-GC work.
  s.used_bytes = 0;
  s.regions_in_use = 0;
  s.regions_freed = 0;
  s.bytes_moved = 0;
  s.objects_moved = 0;
  s.tagged_roots = TeraHeapRoots::live_count();
  s.movable_labels = TeraHeapRoots::movable_label_count();
  return s;
}
