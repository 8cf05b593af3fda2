/*
 * The G1 facade's inline part: adjusting a reference to a moved or evacuated object.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1_INLINE_HPP

#include "gc/teraheap/teraHeapG1.hpp"

#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1ConcurrentMarkBitMap.inline.hpp"
#include "gc/g1/heapRegion.hpp"
#include "gc/teraheap/teraHeap.inline.hpp"
#include "utilities/align.hpp"

// What a full GC's adjust step asks of G1 about old copies.
class TeraHeapG1Marks : AllStatic {
public:
  // A full GC's marks: G1's bitmap holds them until the next marking clears it.
  static bool is_marked(oop obj) {
    return G1CollectedHeap::heap()->concurrent_mark()->next_mark_bitmap()->is_marked(obj);
  }

  // A humongous object starts at a region's bottom, and G1 clears the
  // regions of a dead one (an old copy) before it adjusts references.
  static bool may_overwrite_header(HeapWord* addr) {
    return is_aligned(addr, HeapRegion::GrainBytes);
  }
};

template <class T>
inline bool TeraHeapG1::adjust_pointer(T* p, oop obj) {
  return TeraHeap::adjust_pointer<TeraHeapG1Marks>(p, obj);
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1_INLINE_HPP
