/*
 * Where a moved object's old copy went: the lookup, for any collector.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_INLINE_HPP

#include "gc/teraheap/teraHeapForwarding.hpp"

#include "oops/oop.inline.hpp"

template <class Collector>
inline oop TeraHeapForwarding::forwardee_or_null(oop obj) {
  HeapWord* const addr = cast_from_oop<HeapWord*>(obj);
  if (Collector::may_overwrite_header(addr)) {
    oop to = find_kept(addr);
    if (to != NULL) {
      return to;
    }
  }
  if (Collector::is_marked(obj)) {
    return NULL;
  }
  // Unmarked: an old copy, or a dead object in a place that still holds dead
  // references (an nmethod being unloaded), left as the stock collector would.
  return obj->is_forwarded() ? obj->forwardee() : obj;
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_INLINE_HPP
