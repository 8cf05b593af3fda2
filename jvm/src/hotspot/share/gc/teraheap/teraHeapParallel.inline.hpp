/*
 * The Parallel facade's inline part: adjusting a reference to a moved or evacuated object.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPPARALLEL_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPPARALLEL_INLINE_HPP

#include "gc/teraheap/teraHeapParallel.hpp"

#include "gc/parallel/parMarkBitMap.inline.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "gc/teraheap/teraHeap.inline.hpp"

// What a full GC's adjust step asks of Parallel about old copies.
class TeraHeapParallelMarks : AllStatic {
public:
  static bool is_marked(oop obj) { return PSParallelCompact::mark_bitmap()->is_marked(obj); }

  // A dense prefix's filler starts at most this many words before a region
  // boundary (dense_prefix_end - 3 in the collector's case d, or
  // min_fill_size), or one word before it and then covers the region's
  // first word too (case b).
  static bool may_overwrite_header(HeapWord* addr) {
    const size_t offset = PSParallelCompact::summary_data().region_offset(addr);
    const size_t reach = MAX2((size_t)3, CollectedHeap::min_fill_size());
    return offset == 0 || offset >= ParallelCompactData::RegionSize - reach;
  }
};

template <class T>
inline bool TeraHeapParallel::adjust_pointer(T* p, oop obj) {
  return TeraHeap::adjust_pointer<TeraHeapParallelMarks>(p, obj);
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPPARALLEL_INLINE_HPP
