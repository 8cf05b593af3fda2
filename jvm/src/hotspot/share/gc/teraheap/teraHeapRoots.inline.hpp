/*
 * Tagged roots, walked at full GCs.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPROOTS_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPROOTS_INLINE_HPP

#include "gc/teraheap/teraHeapRoots.hpp"

#include "runtime/jniHandles.inline.hpp"
#include "utilities/growableArray.hpp"

struct TeraHeapTaggedRoot {
  jweak root;
  jlong label;
};

// The table itself, for roots_do.
GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>* teraheap_root_table();

template <typename F>
void TeraHeapRoots::roots_do(F f) {
  GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>* table = teraheap_root_table();
  for (int i = 0; i < table->length(); i++) {
    const TeraHeapTaggedRoot& e = table->at(i);
    oop root = JNIHandles::resolve(e.root);
    if (root != NULL) {
      f(root, e.label);
    }
  }
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPROOTS_INLINE_HPP
