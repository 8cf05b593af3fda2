/*
 * One full GC's trace of orphaned labels' regions, object by object.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapH2Roots.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapTrace.inline.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/objArrayKlass.inline.hpp"
#include "oops/objArrayOop.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "utilities/bitMap.inline.hpp"

TeraHeapRegions* TeraHeapTrace::_regions = NULL;
TeraHeapTracedRegion** TeraHeapTrace::_traced = NULL;
GrowableArrayCHeap<uint, mtGC>* TeraHeapTrace::_list = NULL;
Mutex* TeraHeapTrace::_queue_lock = NULL;
GrowableArrayCHeap<oop, mtGC>* TeraHeapTrace::_queue = NULL;
volatile int TeraHeapTrace::_queue_length = 0;
volatile int TeraHeapTrace::_deepest = 0;

void TeraHeapTrace::initialize(TeraHeapRegions* regions) {
  _regions = regions;
  _traced = NEW_C_HEAP_ARRAY(TeraHeapTracedRegion*, regions->count(), mtGC);
  for (uint i = 0; i < regions->count(); i++) {
    _traced[i] = NULL;
  }
  _list = new GrowableArrayCHeap<uint, mtGC>(16);
  _queue = new GrowableArrayCHeap<oop, mtGC>(64);
  _queue_lock = new Mutex(Mutex::leaf, "TeraHeapTrace_lock", true, Mutex::_safepoint_check_never);
}

void TeraHeapTrace::add(uint r) {
  // Bits for what the region holds: nothing is added to a closed label's
  // regions. A large object's regions hold it alone: one bit.
  const size_t bits = _regions->holds_large_object(r) ? 1 : _regions->used(r).word_size();
  _traced[r] = new TeraHeapTracedRegion(_regions->bottom(r), bits);
  _list->append(r);
}

void TeraHeapTrace::enqueue(oop obj) {
  MutexLocker ml(_queue_lock, Mutex::_no_safepoint_check_flag);
  _queue->push(obj);
  Atomic::release_store(&_queue_length, _queue->length());
}

void TeraHeapTrace::note_depth(int depth) {
  int deepest = Atomic::load(&_deepest);
  while (depth > deepest) {
    const int seen = Atomic::cmpxchg(&_deepest, deepest, depth);
    if (seen == deepest) {
      return;
    }
    deepest = seen;
  }
}

oop TeraHeapTrace::take_queued() {
  if (Atomic::load_acquire(&_queue_length) == 0) {
    return NULL;
  }
  MutexLocker ml(_queue_lock, Mutex::_no_safepoint_check_flag);
  if (_queue->is_empty()) {
    return NULL;
  }
  oop obj = _queue->pop();
  Atomic::release_store(&_queue_length, _queue->length());
  return obj;
}

bool TeraHeapTrace::is_traced_region(const void* p) {
  return _traced[_regions->index_of(p)] != NULL;
}

bool TeraHeapTrace::is_reached(oop obj) {
  const TeraHeapTracedRegion* t = _traced[_regions->index_of(obj)];
  const BitMap::idx_t bit = t->bit(obj);
  // Past a large object's one bit: a filler that replaced part of it.
  return bit < t->reached.size() && t->reached.at(bit);
}

size_t TeraHeapTrace::fill_unreached(uint r) {
  if (_regions->holds_large_object(r)) {
    HeapWord* bottom = _regions->bottom(r);
    if (is_reached(cast_to_oop(bottom))) {
      return 0;
    }
    // Headers only; an object larger than the largest filler takes several.
    CollectedHeap::fill_with_objects(bottom, _regions->used(r).word_size(), false /* zap */);
    return 1;
  }
  size_t filled = 0;
  HeapWord* seen_to = _regions->bottom(r);   // objects below were looked at
  TeraHeapCardWalker::walk(_regions, r, false,
                           [](TeraHeapCards::CardValue v) { return v != TeraHeapCards::clean; },
                           [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                             for (HeapWord* p = MAX2(obj, seen_to); p < mr.end(); ) {
                               oop o = cast_to_oop(p);
                               const size_t size = o->size();
                               if (!is_reached(o)) {
                                 // Headers only (a large object takes several): the rest of
                                 // the page in H2 stays as it was.
                                 CollectedHeap::fill_with_objects(p, size, false /* zap */);
                                 filled++;
                               }
                               p += size;
                               seen_to = p;
                             }
                           });
  return filled;
}

// Before anything is moved into them again: a freed region may be opened for
// another label in this same GC.
void TeraHeapTrace::forget_freed() {
  int kept = 0;
  for (int k = 0; k < _list->length(); k++) {
    const uint r = _list->at(k);
    if (_regions->in_use(r)) {
      _list->at_put(kept++, r);
    } else {
      delete _traced[r];
      _traced[r] = NULL;
    }
  }
  _list->trunc_to(kept);
}

void TeraHeapTrace::clear() {
  for (int k = 0; k < _list->length(); k++) {
    delete _traced[_list->at(k)];
    _traced[_list->at(k)] = NULL;
  }
  _list->clear();
}

void TeraHeapTrace::log_depth() {
  log_debug(gc, teraheap)("Tracing had at most %d objects waiting at once", Atomic::load(&_deepest));
  Atomic::store(&_deepest, 0);
}
