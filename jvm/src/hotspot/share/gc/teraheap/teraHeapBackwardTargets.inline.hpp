/*
 * The H1 objects each region's summarized cards refer to: whether one moved.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPBACKWARDTARGETS_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPBACKWARDTARGETS_INLINE_HPP

#include "gc/teraheap/teraHeapBackwardTargets.hpp"

template <class Adjuster>
inline bool TeraHeapBackwardTargets::any_moves(uint region, Adjuster* adjuster) {
  const Set* s = &_sets[region];
  for (uint i = 0; i < s->capacity; i++) {
    oop target = s->slots[i];
    if (target != NULL) {
      // Its new address (an H2 one if a group took it along), into a copy.
      oop moved = target;
      adjuster->adjust(&moved);
      if (moved != target) {
        return true;
      }
    }
  }
  return false;
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPBACKWARDTARGETS_INLINE_HPP
