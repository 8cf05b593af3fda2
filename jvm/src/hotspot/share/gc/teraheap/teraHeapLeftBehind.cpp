/*
 * The parts of groups that a pause moved in part, left in H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/safepoint.hpp"

GrowableArrayCHeap<jlong, mtGC>* TeraHeapLeftBehind::_labels = NULL;

void TeraHeapLeftBehind::note(jlong label) {
  assert(SafepointSynchronize::is_at_safepoint(), "at a pause");
  if (_labels == NULL) {
    _labels = new GrowableArrayCHeap<jlong, mtGC>(4);
  }
  _labels->append_if_missing(label);
}

bool TeraHeapLeftBehind::any() {
  return _labels != NULL && _labels->is_nonempty();
}

// Moves what an H2 object's fields within one card lead to in H1.
class TeraHeapLeftBehindClosure : public BasicOopIterateClosure {
  TeraHeapMover* const _mover;
  const jlong          _label;
  oop                  _holder;

public:
  TeraHeapLeftBehindClosure(TeraHeapMover* mover, jlong label) : _mover(mover), _label(label), _holder(NULL) {}

  void set_holder(oop holder) { _holder = holder; }

  // The mover skips null fields and those into H2.
  virtual void do_oop(oop* p) { _mover->move_from_h2_field(_holder, p, _label); }
  virtual void do_oop(narrowOop* p) { _mover->move_from_h2_field(_holder, p, _label); }
};

void TeraHeapLeftBehind::move(TeraHeapRegions* regions, TeraHeapMover* mover) {
  if (!any()) {
    return;
  }
  // The regions and their tops first: the moves open regions and claim
  // space in the labels' open ones, which is not walkable until the mover
  // finishes, and holds copies whose fields the mover has followed.
  struct Walked {
    uint      region;
    HeapWord* top;
  };
  GrowableArray<Walked> walked;
  for (int k = 0; k < regions->in_use_count(); k++) {
    const uint r = regions->in_use_region(k);
    if (_labels->contains(regions->label(r))) {
      walked.append(Walked{r, regions->top(r)});
    }
  }
  TeraHeapCards::refresh(regions, 0, regions->in_use_count());
  for (int i = 0; i < walked.length(); i++) {
    const uint r = walked.at(i).region;
    TeraHeapLeftBehindClosure cl(mover, regions->label(r));
    TeraHeapCardWalker::walk(regions, r, false,
                             [](TeraHeapCards::CardValue v) { return v != TeraHeapCards::clean; },
                             [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                               for (HeapWord* p = obj; p < mr.end(); p += cast_to_oop(p)->size()) {
                                 cl.set_holder(cast_to_oop(p));
                                 cast_to_oop(p)->oop_iterate(&cl, mr);
                               }
                             },
                             walked.at(i).top);
  }
  if (!mover->h2_full()) {
    _labels->clear();
  }
}
