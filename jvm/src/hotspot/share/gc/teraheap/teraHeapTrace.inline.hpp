/*
 * One full GC's trace of orphaned labels' regions, for any collector's marker.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPTRACE_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPTRACE_INLINE_HPP

#include "gc/teraheap/teraHeapTrace.hpp"

#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapH2Roots.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/objArrayKlass.inline.hpp"
#include "oops/objArrayOop.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
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

// An object to follow, or an object array to follow from element `from` on.
struct TeraHeapTraceWork {
  oop obj;
  int from;
};
typedef GrowableArrayCHeap<TeraHeapTraceWork, mtGC> TeraHeapTraceStack;

// Follows a traced object's fields: H1 referents are marked by the
// collector's marker, traced H2 referents followed in turn, other H2
// referents' regions made live.
template <class Marker>
class TeraHeapTraceClosure : public BasicOopIterateClosure {
  TeraHeapRegions* _regions;
  Marker* _marker;
  TeraHeapTraceStack* _stack;
public:
  TeraHeapTraceClosure(TeraHeapRegions* regions, Marker* marker, TeraHeapTraceStack* stack) :
    _regions(regions), _marker(marker), _stack(stack) {}

  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop o = CompressedOops::decode_not_null(heap_oop);
    if (!TeraHeapAddressSpace::contains(o)) {
      _marker->mark_and_push(p);
      return;
    }
    _regions->mark_live(_regions->raw_index_of(o));
    const uint r = _regions->index_of(o);
    TeraHeapH2Roots::note_reached(r, o);
    if (TeraHeapTrace::reach(r, o)) {
      _stack->push(TeraHeapTraceWork{o, 0});
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

template <class Marker>
bool TeraHeapTrace::trace(Marker* marker) {
  oop first = take_queued();
  if (first == NULL) {
    return false;
  }
  TeraHeapTraceStack stack(64);
  stack.push(TeraHeapTraceWork{first, 0});
  TeraHeapTraceClosure<Marker> cl(_regions, marker, &stack);
  int deepest = 0;
  while (stack.is_nonempty()) {
    deepest = MAX2(deepest, stack.length());
    const TeraHeapTraceWork w = stack.pop();
    if (w.from == 0) {
      Atomic::add(&_traced[_regions->index_of(w.obj)]->live_words, (size_t)w.obj->size());
    }
    if (!w.obj->is_objArray()) {
      w.obj->oop_iterate(&cl);
      continue;
    }
    // The rest of the array waits below the chunk's elements.
    const objArrayOop a = objArrayOop(w.obj);
    const int end = MIN2(a->length(), w.from + elements_per_chunk);
    if (end < a->length()) {
      stack.push(TeraHeapTraceWork{a, end});
    }
    a->oop_iterate_range(&cl, w.from, end);
  }
  note_depth(deepest);
  return true;
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPTRACE_INLINE_HPP
