/*
 * The facade's inline part: adjusting a reference to a moved or evacuated object.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAP_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAP_INLINE_HPP

#include "gc/teraheap/teraHeap.hpp"

#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapForwarding.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/oop.inline.hpp"

template <class Collector, class T>
inline bool TeraHeap::adjust_pointer(T* p, oop obj) {
  const bool moved_this_gc = TeraHeap::moved_this_gc();
  if (TeraHeap::is_in_h2(obj)) {
    // Unchanged, so no H2 page is dirtied for nothing, unless its label was evacuated.
    if (moved_this_gc && TeraHeapEvacuation::is_evacuating(obj) && obj->is_forwarded()) {
      RawAccess<IS_NOT_NULL>::oop_store(p, obj->forwardee());
    }
    return true;
  }
  if (!moved_this_gc) {
    return false;
  }
  oop copy = TeraHeapForwarding::forwardee_or_null<Collector>(obj);
  if (copy == NULL) {
    return false;
  }
  RawAccess<IS_NOT_NULL>::oop_store(p, copy);
  return true;
}

#endif // SHARE_GC_TERAHEAP_TERAHEAP_INLINE_HPP
