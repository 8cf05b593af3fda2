/*
 * One full GC's trace of orphaned labels' regions: what marking calls for every object it reaches.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPTRACE_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPTRACE_INLINE_HPP

#include "gc/teraheap/teraHeapTrace.hpp"

#include "utilities/bitMap.inline.hpp"

inline bool TeraHeapTrace::reach(uint r, oop obj) {
  TeraHeapTracedRegion* t = _traced[r];
  return t != NULL && t->reached.par_set_bit(t->bit(obj));
}

inline void TeraHeapTrace::reached(uint r, oop obj) {
  if (reach(r, obj)) {
    enqueue(obj);
  }
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPTRACE_INLINE_HPP
