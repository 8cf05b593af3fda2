/*
 * Tagged roots, walked at full GCs and at pauses that move.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPROOTS_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPROOTS_INLINE_HPP

#include "gc/teraheap/teraHeapRoots.hpp"

#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "runtime/jniHandles.inline.hpp"
#include "utilities/growableArray.hpp"

template <typename F>
void TeraHeapRoots::roots_do(F f) {
  for (int i = 0; i < _roots->length(); i++) {
    const TeraHeapTaggedRoot& e = _roots->at(i);
    oop root = JNIHandles::resolve(e.root);
    if (root != NULL) {
      f(root, e.label);
    }
  }
}

template <typename F, typename P>
void TeraHeapRoots::offer_to_pause(bool again, P taken_now, F f) {
  // Every young pause asks: most find no hint.
  if (_movable->is_empty()) {
    return;
  }
  for (int i = 0; i < _roots->length(); i++) {
    TeraHeapTaggedRoot* e = _roots->adr_at(i);
    if ((e->offered && !again) || !_movable->contains(e->label)) {
      continue;
    }
    oop root = resolve_no_keepalive(e->root);
    if (root == NULL || TeraHeapAddressSpace::contains(root) || (e->offered && !taken_now(root))) {
      continue;
    }
    e->offered = true;
    f(root, e->label);
  }
}

template <typename F>
void TeraHeapRoots::advised_in_h1_do(F f) {
  if (_movable->is_empty()) {
    return;
  }
  for (int i = 0; i < _roots->length(); i++) {
    const TeraHeapTaggedRoot& e = _roots->at(i);
    if (!_movable->contains(e.label)) {
      continue;
    }
    oop root = resolve_no_keepalive(e.root);
    if (root != NULL && !TeraHeapAddressSpace::contains(root)) {
      f(root);
    }
  }
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPROOTS_INLINE_HPP
