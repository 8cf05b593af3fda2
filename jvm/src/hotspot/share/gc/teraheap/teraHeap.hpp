/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAP_HPP
#define SHARE_GC_TERAHEAP_TERAHEAP_HPP

#include "gc/teraheap/teraHeapStats.hpp"
#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"
#include "memory/virtualspace.hpp"

class TeraHeapFile;

// The entry point of the TeraHeap module: what the hooks in HotSpot's own
// files call. The Java heap is laid out as [H2 | old | young]: H2 below the
// Parallel collector's generations, so that the scavenger's single "is young"
// compare never takes an H2 address for a young one, and one range check
// tells H2 from H1.
class TeraHeap : AllStatic {
  static MemRegion     _h2;            // the whole of H2
  static MemRegion     _h1;            // old and young generations, as reserved
  static size_t        _region_size;
  static TeraHeapFile* _file;

  static void log_layout();

public:
  // Bytes to add to the heap reservation for H2.
  static size_t reserved_size();

  // Given the whole heap reservation, maps H2's file over its low end and
  // returns the rest, for the old and young generations.
  static ReservedSpace initialize(ReservedSpace heap_rs);

  static bool is_in_h2(const void* p) { return _h2.contains(p); }
  static MemRegion h2_region() { return _h2; }
  static MemRegion h1_reserved_region() { return _h1; }
  static size_t region_size() { return _region_size; }
  static size_t region_count() { return _h2.byte_size() / _region_size; }

  static TeraHeapStats stats();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAP_HPP
