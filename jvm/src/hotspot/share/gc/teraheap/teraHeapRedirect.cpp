/*
 * After a full GC's moves on the Parallel collector: live H1 objects' references redirected to H2 copies.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/parMarkBitMap.inline.hpp"
#include "gc/parallel/parallelScavengeHeap.hpp"
#include "gc/parallel/psOldGen.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/parallel/psYoungGen.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapRedirect.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"

class TeraHeapRedirectClosure : public BasicOopIterateClosure {
public:
  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop o = CompressedOops::decode_not_null(heap_oop);
    // Live H1 objects are marked; an unmarked one that is referenced moved to
    // H2. In H2, only objects of evacuated labels move.
    if (TeraHeapAddressSpace::contains(o) ? TeraHeapEvacuation::is_evacuating(o) && o->is_forwarded()
                              : !PSParallelCompact::mark_bitmap()->is_marked(o) && o->is_forwarded()) {
      RawAccess<IS_NOT_NULL>::oop_store(p, o->forwardee());
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// The spaces of H1 cut into stripes that GC workers claim one at a time. A
// stripe's worker redirects the objects that start in it, to their ends.
class TeraHeapRedirectTask : public AbstractGangTask {
  static const size_t stripe_words = 256 * K;
  static const int spaces = 4;

  MutableSpace* _space[spaces];
  size_t        _first_stripe[spaces + 1];   // stripe numbers where each space begins
  volatile size_t _next;

  static void redirect_stripe(HeapWord* from, HeapWord* to, TeraHeapRedirectClosure* cl) {
    ParMarkBitMap* bitmap = PSParallelCompact::mark_bitmap();
    for (HeapWord* p = bitmap->find_obj_beg(from, to); p < to; ) {
      oop obj = cast_to_oop(p);
      obj->oop_iterate(cl);
      HeapWord* const next = p + obj->size();
      if (next >= to) {
        break;
      }
      p = bitmap->find_obj_beg(next, to);
    }
  }

public:
  TeraHeapRedirectTask() : AbstractGangTask("TeraHeap redirect H1 references"), _next(0) {
    ParallelScavengeHeap* heap = ParallelScavengeHeap::heap();
    _space[0] = heap->old_gen()->object_space();
    _space[1] = heap->young_gen()->eden_space();
    _space[2] = heap->young_gen()->from_space();
    _space[3] = heap->young_gen()->to_space();
    _first_stripe[0] = 0;
    for (int i = 0; i < spaces; i++) {
      const size_t used = pointer_delta(_space[i]->top(), _space[i]->bottom());
      _first_stripe[i + 1] = _first_stripe[i] + (used + stripe_words - 1) / stripe_words;
    }
  }

  void work(uint worker_id) {
    TeraHeapRedirectClosure cl;
    for (size_t n = Atomic::fetch_and_add(&_next, (size_t)1); n < _first_stripe[spaces];
         n = Atomic::fetch_and_add(&_next, (size_t)1)) {
      int i = 0;
      while (n >= _first_stripe[i + 1]) {
        i++;
      }
      HeapWord* const from = _space[i]->bottom() + (n - _first_stripe[i]) * stripe_words;
      redirect_stripe(from, MIN2(from + stripe_words, _space[i]->top()), &cl);
    }
  }
};

void TeraHeapRedirect::redirect_h1_references() {
  TeraHeapRedirectTask task;
  ParallelScavengeHeap::heap()->workers().run_task(&task);
}
