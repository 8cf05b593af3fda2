/*
 * The parts of groups that a pause moved in part, left in H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/safepoint.hpp"
#include "utilities/bitMap.inline.hpp"

GrowableArrayCHeap<jlong, mtGC>* TeraHeapLeftBehind::_labels = NULL;
GrowableArrayCHeap<TeraHeapLeftBehind::Pending, mtGC>* TeraHeapLeftBehind::_pending = NULL;
CHeapBitMap* TeraHeapLeftBehind::_pending_regions = NULL;
bool TeraHeapLeftBehind::_cards_raised = false;

// A bitmap lives as long as the JVM: allocated once, through CHeapObj.
struct TeraHeapPendingRegionBits : public CHeapObj<mtGC> {
  CHeapBitMap bits;
  TeraHeapPendingRegionBits(BitMap::idx_t size) : bits(size, mtGC) {}
};

int TeraHeapLeftBehind::pending_index(jlong label) {
  for (int i = 0; _pending != NULL && i < _pending->length(); i++) {
    if (_pending->at(i).label == label) {
      return i;
    }
  }
  return -1;
}

void TeraHeapLeftBehind::refresh_pending_regions(TeraHeapRegions* regions) {
  if (_pending_regions == NULL) {
    return;
  }
  _pending_regions->clear();
  if (!any_pending()) {
    return;
  }
  for (int k = 0; k < regions->in_use_count(); k++) {
    const uint r = regions->in_use_region(k);
    if (pending_index(regions->label(r)) >= 0) {
      _pending_regions->set_bit(r);
    }
  }
}

void TeraHeapLeftBehind::note(jlong label, TeraHeapRegions* regions) {
  assert(SafepointSynchronize::is_at_safepoint(), "at a pause");
  if (_labels == NULL) {
    _labels = new GrowableArrayCHeap<jlong, mtGC>(4);
    _pending = new GrowableArrayCHeap<Pending, mtGC>(4);
    _pending_regions = &(new TeraHeapPendingRegionBits(regions->count()))->bits;
  }
  _labels->append_if_missing(label);
  const int i = pending_index(label);
  if (i < 0) {
    _pending->append(Pending{label, 0});
  } else {
    _pending->at_put(i, Pending{label, 0});
  }
}

bool TeraHeapLeftBehind::any() {
  return _labels != NULL && _labels->is_nonempty();
}

// Moves what an H2 object's fields within one card lead to in H1, and notes
// whether a field still refers into H1 after it, and to what the pause may
// collect.
class TeraHeapLeftBehindClosure : public BasicOopIterateClosure {
  TeraHeapMover* const     _mover;
  TeraHeapCollector* const _collector;
  const jlong              _label;
  oop                      _holder;
  bool                     _refers_to_h1;
  bool                     _card_to_read;   // by the pause, for the current card

  template <class T> void do_oop_work(T* p) {
    // The mover skips null fields and those into H2.
    _mover->move_from_h2_field(_holder, p, _label);
    const oop target = RawAccess<>::oop_load(p);
    if (target != NULL && !TeraHeapAddressSpace::contains(target)) {
      _refers_to_h1 = true;
      _card_to_read = _card_to_read || _collector->pause_may_collect(target);
    }
  }

public:
  TeraHeapLeftBehindClosure(TeraHeapMover* mover, jlong label) :
    _mover(mover), _collector(TeraHeapCollector::current()), _label(label), _holder(NULL),
    _refers_to_h1(false), _card_to_read(false) {}

  void set_holder(oop holder) { _holder = holder; }
  bool refers_to_h1() const { return _refers_to_h1; }
  void start_card() { _card_to_read = false; }
  bool card_to_read() const { return _card_to_read; }

  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// Walks the regions of the labels `picks` chooses, up to their tops before
// any move (the moves open regions and claim space in the labels' open
// ones, which is not walkable until the mover finishes, and holds copies
// whose fields the mover has followed), over the cards `wanted` takes, and
// moves with `mover` from their fields. Then `done(label, refers_to_h1,
// moved)` for each region walked. Returns how many oldgen cards it raised
// for the pause to read.
template <typename Picks, typename Wanted, typename Done>
static size_t walk_labels(TeraHeapRegions* regions, TeraHeapMover* mover, Picks picks, Wanted wanted, Done done) {
  struct Walked {
    uint      region;
    HeapWord* top;
  };
  GrowableArray<Walked> walked;
  for (int k = 0; k < regions->in_use_count(); k++) {
    const uint r = regions->in_use_region(k);
    if (picks(r)) {
      walked.append(Walked{r, regions->top(r)});
    }
  }
  TeraHeapCards::refresh(regions, 0, regions->in_use_count());
  size_t raised = 0;
  for (int i = 0; i < walked.length() && !mover->h2_full(); i++) {
    const uint r = walked.at(i).region;
    const jlong label = regions->label(r);
    const size_t objects = mover->objects_moved();
    TeraHeapLeftBehindClosure cl(mover, label);
    TeraHeapCardWalker::walk(regions, r, false, wanted,
                             [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                               cl.start_card();
                               for (HeapWord* p = obj; p < mr.end(); p += cast_to_oop(p)->size()) {
                                 cl.set_holder(cast_to_oop(p));
                                 cast_to_oop(p)->oop_iterate(&cl, mr);
                               }
                               // Dirty and youngergen cards are read anyway.
                               if (cl.card_to_read() && *card == TeraHeapCards::oldgen) {
                                 *card = TeraHeapCards::youngergen;
                                 raised++;
                               }
                             },
                             walked.at(i).top);
    done(label, cl.refers_to_h1(), mover->objects_moved() > objects);
  }
  return raised;
}

void TeraHeapLeftBehind::cycle_begins(TeraHeapRegions* regions) {
  if (!any_pending()) {
    return;
  }
  for (int i = _pending->length() - 1; i >= 0; i--) {
    Pending p = _pending->at(i);
    if (++p.cycles >= 3) {
      _pending->remove_at(i);
    } else {
      _pending->at_put(i, p);
    }
  }
  refresh_pending_regions(regions);
}

void TeraHeapLeftBehind::move_pending(TeraHeapRegions* regions, TeraHeapMover* mover) {
  if (!any_pending()) {
    return;
  }
  assert(SafepointSynchronize::is_at_safepoint(), "at a pause");
  // Which labels still refer into H1 after the walk, or had copies made
  // (their fields, beyond the tops walked, may refer into H1).
  GrowableArray<bool> still(_pending->length(), _pending->length(), false);
  const size_t raised =
    walk_labels(regions, mover,
                [&](uint r) { return _pending_regions->at(r); },
                // Summarized cards refer to regions no pause collects.
                [](TeraHeapCards::CardValue v) { return v != TeraHeapCards::clean && v != TeraHeapCards::summarized; },
                [&](jlong label, bool refers_to_h1, bool moved) {
                  const int i = pending_index(label);
                  if (i >= 0 && (refers_to_h1 || moved)) {
                    still.at_put(i, true);
                  }
                });
  if (mover->h2_full()) {
    return;   // some regions were not walked: the pause reads their cards
  }
  _cards_raised = true;
  log_debug(gc, teraheap)("Raised " SIZE_FORMAT " oldgen cards of pending labels for the pause to read", raised);
  const int before = _pending->length();
  for (int i = _pending->length() - 1; i >= 0; i--) {
    if (!still.at(i)) {
      _pending->remove_at(i);
    }
  }
  if (_pending->length() < before) {
    refresh_pending_regions(regions);
  }
  log_debug(gc, teraheap)("Pending labels whose groups pauses left in part in H1: %d, %d done",
                          _pending->length(), before - _pending->length());
}

void TeraHeapLeftBehind::move(TeraHeapRegions* regions, TeraHeapMover* mover) {
  if (_pending != NULL) {
    _pending->clear();
    refresh_pending_regions(regions);
  }
  if (!any()) {
    return;
  }
  walk_labels(regions, mover,
              [&](uint r) { return _labels->contains(regions->label(r)); },
              [](TeraHeapCards::CardValue v) { return v != TeraHeapCards::clean; },
              [](jlong label, bool refers_to_h1, bool moved) {});
  if (!mover->h2_full()) {
    _labels->clear();
  }
}
