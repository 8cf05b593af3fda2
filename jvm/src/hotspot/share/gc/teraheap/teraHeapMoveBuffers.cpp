/*
 * A GC worker's space in H2 while groups move.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "gc/teraheap/teraHeapMoveBuffers.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"

TeraHeapMoveBuffers::TeraHeapMoveBuffers(TeraHeapRegions* regions) :
  _regions(regions), _buffers(4), _last(-1) {}

TeraHeapMoveBuffers::Buffer* TeraHeapMoveBuffers::buffer_of(jlong label) {
  if (_last >= 0 && _buffers.at(_last).label == label) {
    return _buffers.adr_at(_last);
  }
  for (int i = 0; i < _buffers.length(); i++) {
    if (_buffers.at(i).label == label) {
      _last = i;
      return _buffers.adr_at(i);
    }
  }
  _buffers.append(Buffer{label, NULL, NULL, 0, NULL});
  _last = _buffers.length() - 1;
  return _buffers.adr_at(_last);
}

// An object fits if it leaves no room, or room for a filler object: a tail
// too small for any object could not be filled when the buffer retires.
bool TeraHeapMoveBuffers::fits(const Buffer* b, size_t words) const {
  const size_t room = b->top == NULL ? 0 : pointer_delta(b->end, b->top);
  return words == room || words + CollectedHeap::min_fill_size() <= room;
}

// Space nothing uses goes back to the region if nothing was claimed after it;
// else a filler object covers it.
void TeraHeapMoveBuffers::give_back_or_fill(HeapWord* p, size_t words) {
  if (!_regions->retract(p, words)) {
    guarantee(words >= CollectedHeap::min_fill_size(), "TeraHeap: an unfillable gap in H2");
    CollectedHeap::fill_with_objects(p, words);
    TeraHeapObjectStarts::record(p);
  }
}

// A tail too small for a filler always reaches the region's end (see
// allocate), where nothing can be claimed after it.
void TeraHeapMoveBuffers::retire(Buffer* b) {
  if (b->top != NULL && b->top < b->end) {
    give_back_or_fill(b->top, pointer_delta(b->end, b->top));
  }
  b->top = b->end = NULL;
}

HeapWord* TeraHeapMoveBuffers::allocate(jlong label, size_t words) {
  size_t got;
  if (words > _regions->region_words()) {
    return _regions->claim(label, words, words, &got);   // regions of its own
  }
  Buffer* b = buffer_of(label);
  b->last_single = NULL;
  if (!fits(b, words)) {
    if (b->copied < single_words) {
      HeapWord* p = _regions->claim(label, words, words, &got);
      if (p != NULL) {
        b->copied += words;
        b->last_single = p;
      }
      return p;
    }
    // Asking for room for a filler past the object means a claim shorter than
    // that one took the rest of its region.
    const size_t largest = MIN2(buffer_words, _regions->region_words() / 4);   // a region is shared
    const size_t want = MAX2(words + CollectedHeap::min_fill_size(), MIN2(largest, b->copied));
    HeapWord* space = _regions->claim(label, words, want, &got);
    if (space == NULL) {
      return NULL;
    }
    if (b->end != NULL && space == b->end && _regions->raw_index_of(space) == _regions->raw_index_of(b->end - 1)) {
      b->end += got;            // nothing was claimed in between, in the same region: grow in place
    } else {
      retire(b);
      b->top = space;
      b->end = space + got;
    }
  }
  HeapWord* result = b->top;
  b->top += words;
  b->copied += words;
  return result;
}

void TeraHeapMoveBuffers::undo(jlong label, HeapWord* p, size_t words) {
  if (words > _regions->region_words()) {
    // Its regions stay, filled, until the next full GC finds them dead:
    // freeing them now would rewrite card residency that other movers set.
    CollectedHeap::fill_with_objects(p, words);
    TeraHeapObjectStarts::record(p);
    return;
  }
  Buffer* b = buffer_of(label);
  b->copied -= words;
  if (b->last_single == p) {
    b->last_single = NULL;
    give_back_or_fill(p, words);
    return;
  }
  assert(b->top == p + words, "the last allocation");
  b->top = p;
}

void TeraHeapMoveBuffers::retire_all() {
  for (int i = 0; i < _buffers.length(); i++) {
    retire(_buffers.adr_at(i));
  }
  _buffers.clear();
  _last = -1;
}
