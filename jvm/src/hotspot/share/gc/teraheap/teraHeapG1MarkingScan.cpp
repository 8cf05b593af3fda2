/*
 * A G1 marking task's read of the H2 regions that marking found live.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1ConcurrentMark.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/shared/suspendibleThreadSet.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapG1Marking.hpp"
#include "gc/teraheap/teraHeapG1MarkingScan.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/safepoint.hpp"

class TeraHeapG1MarkingScanClosure : public BasicOopIterateClosure {
  G1CollectedHeap* const _g1h;
  G1CMTask* const _task;
  uint _region;

public:
  TeraHeapG1MarkingScanClosure(G1CMTask* task, uint region) :
    _g1h(G1CollectedHeap::heap()), _task(task), _region(region) {}

  // Greyed in H1 (an object above G1's TAMS needs no mark) or, in H2, its
  // region reached.
  void grey(oop o) {
    _task->deal_with_reference(&o);
  }

  // A field of the region refers to `o`.
  void refers_to(oop o) {
    if (!TeraHeapAddressSpace::contains(o) && !_g1h->heap_region_containing(o)->is_young()) {
      TeraHeapG1Targets::add_referent(o, _region);
    }
    grey(o);
  }

  template <class T> void do_oop_work(T* p) {
    // The program may store into the field meanwhile: one read of it.
    const T heap_oop = RawAccess<MO_RELAXED>::oop_load(p);
    if (!CompressedOops::is_null(heap_oop)) {
      refers_to(CompressedOops::decode_not_null(heap_oop));
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// What a region leads to as a whole, when marking first takes it.
static void read_region_metadata(TeraHeapRegions* regions, uint r, TeraHeapG1MarkingScanClosure* cl) {
  // Links inside a label stand for references on clean cards.
  GrowableArrayCHeap<uint, mtGC>* const deps = regions->dependencies(r);
  for (int k = 0; deps != NULL && k < deps->length(); k++) {
    TeraHeapG1Marking::reach(deps->at(k));
  }
  // The collector never traces H2: the classes of a live region's objects
  // must not unload under them.
  GrowableArrayCHeap<Klass*, mtGC>* const klasses = regions->klasses(r);
  for (int k = 0; klasses != NULL && k < klasses->length(); k++) {
    oop mirror = klasses->at(k)->java_mirror_no_keepalive();
    if (mirror != NULL) {
      cl->grey(mirror);
    }
  }
  // What its summarized cards refer to: no pause reads those cards, pending
  // label or not.
  TeraHeapBackwardTargets::targets_do(r, [&](oop o) {
    TeraHeapG1Targets::add(o);
    cl->grey(o);
  });
}

// Cards read between two looks at whether the task must stop: each call
// reads at least this many, so that a caller that loops on an aborted task
// without yielding (reference precleaning) still gets on.
static const int cards_per_check = 16;

// Reads region r's cards from `from` on; returns the card where the task
// stopped, or NULL once all are read.
static HeapWord* read_cards(TeraHeapRegions* regions, uint r, HeapWord* from, G1CMTask* task,
                            TeraHeapG1MarkingScanClosure* cl) {
  G1ConcurrentMark* const cm = G1CollectedHeap::heap()->concurrent_mark();
  // In Remark, the marking threads stand still and nothing yields.
  const bool concurrent = !SafepointSynchronize::is_at_safepoint();
  HeapWord* stopped_at = NULL;
  int cards = 0;
  TeraHeapCardWalker::walk_concurrently(regions, r, from,
                                        [&](TeraHeapCards::CardValue v) {
                                          return stopped_at == NULL && v != TeraHeapCards::clean &&
                                                 v != TeraHeapCards::summarized;
                                        },
                                        [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                                          if (++cards % cards_per_check == 0 &&
                                              (task->has_aborted() || cm->has_aborted() ||
                                               (concurrent && SuspendibleThreadSet::should_yield()))) {
                                            task->set_has_aborted();
                                            stopped_at = mr.start();
                                            return;
                                          }
                                          TeraHeapCardWalker::iterate_fields(obj, mr, cl);
                                          task->drain_local_queue(true /* partially */);
                                        });
  return stopped_at;
}

void TeraHeapG1MarkingScan::read_regions(TeraHeapRegions* regions, G1CMTask* task) {
  uint r;
  HeapWord* from;
  // What the task has greyed may lead to a region: drained first, so that
  // none waits when the task offers to terminate (a serial task, or the
  // last to offer, does not look again).
  while (true) {
    task->drain_local_queue(false);
    task->drain_global_stack(false);
    if (task->has_aborted() || !TeraHeapG1Marking::claim_region(&r, &from)) {
      return;
    }
    TeraHeapG1MarkingScanClosure cl(task, r);
    if (from == regions->bottom(r)) {
      read_region_metadata(regions, r, &cl);
    }
    HeapWord* const stopped_at = read_cards(regions, r, from, task, &cl);
    if (stopped_at != NULL) {
      TeraHeapG1Marking::put_back(r, stopped_at);
      return;
    }
  }
}
