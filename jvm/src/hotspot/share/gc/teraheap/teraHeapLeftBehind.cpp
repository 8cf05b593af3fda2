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
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "memory/resourceArea.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
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

// Walks, on all GC workers, the regions of the labels `picks` chooses, up to
// their tops before any move (the moves open regions and claim space in the
// labels' open ones, which is not walkable until the movers finish, and hold
// copies whose fields the movers have followed), over the cards `wanted`
// takes, and moves from their fields. A worker takes a region at a time,
// whose cards no other worker reads or raises; the movers meet only on
// objects that several fields reach, as the movers of groups do. Then
// `done(label, refers_to_h1, moved)` for each region walked, on the worker.
template <typename Wanted, typename Done>
class TeraHeapLeftBehindWalk : public AbstractGangTask {
  struct Walked {
    uint      region;
    HeapWord* top;
  };
  TeraHeapRegions* const          _regions;
  const TeraHeapSingletons* const _singletons;
  TeraHeapMoveShared* const       _shared;
  GrowableArray<Walked>           _walked;
  Wanted                          _wanted;
  Done                            _done;
  volatile int                    _next;
  volatile size_t                 _raised;
  volatile size_t                 _objects;
  volatile size_t                 _words;
  volatile size_t                 _too_large;
  volatile uint                   _movers;

  void walk_region(TeraHeapMover* mover, const Walked& w) {
    const jlong label = _regions->label(w.region);
    const size_t objects = mover->objects_moved();
    TeraHeapLeftBehindClosure cl(mover, label);
    size_t raised = 0;
    TeraHeapCardWalker::walk(_regions, w.region, false, _wanted,
                             [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                               cl.start_card();
                               for (HeapWord* p = obj; p < mr.end(); p += cast_to_oop(p)->size()) {
                                 cl.set_holder(cast_to_oop(p));
                                 cast_to_oop(p)->oop_iterate(&cl, mr);
                               }
                               // Dirty and youngergen cards are read anyway. A
                               // mover may dirty a card at the region's old top.
                               if (cl.card_to_read() &&
                                   Atomic::cmpxchg(card, TeraHeapCards::oldgen, TeraHeapCards::youngergen) ==
                                     TeraHeapCards::oldgen) {
                                 raised++;
                               }
                             },
                             w.top);
    Atomic::add(&_raised, raised);
    _done(label, cl.refers_to_h1(), mover->objects_moved() > objects);
  }

public:
  template <typename Picks>
  TeraHeapLeftBehindWalk(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                         TeraHeapMoveShared* shared, Picks picks, Wanted wanted, Done done) :
    AbstractGangTask("TeraHeap move of what pauses left in H1"),
    _regions(regions), _singletons(singletons), _shared(shared), _wanted(wanted), _done(done),
    _next(0), _raised(0), _objects(0), _words(0), _too_large(0), _movers(0) {
    for (int k = 0; k < regions->in_use_count(); k++) {
      const uint r = regions->in_use_region(k);
      if (picks(r)) {
        _walked.append(Walked{r, regions->top(r)});
      }
    }
  }

  bool is_empty() const { return _walked.is_empty(); }

  virtual void work(uint worker_id) {
    ResourceMark rm;
    TeraHeapMover mover(_regions, _singletons, _shared);
    for (int i = Atomic::fetch_and_add(&_next, 1); i < _walked.length() && !mover.h2_full();
         i = Atomic::fetch_and_add(&_next, 1)) {
      walk_region(&mover, _walked.at(i));
    }
    mover.finish();
    Atomic::add(&_objects, mover.objects_moved());
    Atomic::add(&_words, mover.words_moved());
    Atomic::add(&_too_large, mover.too_large());
    if (mover.objects_moved() > 0) {
      Atomic::inc(&_movers);
    }
  }

  TeraHeapLeftBehind::Moved moved() const {
    return TeraHeapLeftBehind::Moved{_objects, _words, _too_large, _movers};
  }
  size_t raised() const { return _raised; }
};

template <typename Picks, typename Wanted, typename Done>
static TeraHeapLeftBehind::Moved walk_labels(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                                             TeraHeapMoveShared* shared, Picks picks, Wanted wanted, Done done,
                                             size_t* raised = NULL) {
  TeraHeapLeftBehindWalk<Wanted, Done> task(regions, singletons, shared, picks, wanted, done);
  if (!task.is_empty()) {
    TeraHeapCards::refresh(regions, 0, regions->in_use_count());
    TeraHeapCollector::current()->workers()->run_task(&task);
  }
  if (raised != NULL) {
    *raised = task.raised();
  }
  return task.moved();
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

TeraHeapLeftBehind::Moved TeraHeapLeftBehind::move_pending(TeraHeapRegions* regions,
                                                           const TeraHeapSingletons* singletons,
                                                           TeraHeapMoveShared* shared) {
  if (!any_pending()) {
    return Moved();
  }
  assert(SafepointSynchronize::is_at_safepoint(), "at a pause");
  // Which labels still refer into H1 after the walk, or had copies made
  // (their fields, beyond the tops walked, may refer into H1).
  const int pending = _pending->length();
  volatile bool* const still = NEW_C_HEAP_ARRAY(volatile bool, pending, mtGC);
  for (int i = 0; i < pending; i++) {
    still[i] = false;
  }
  size_t raised = 0;
  const Moved moved =
    walk_labels(regions, singletons, shared,
                [&](uint r) { return _pending_regions->at(r); },
                // Summarized cards refer to regions no pause collects.
                [](TeraHeapCards::CardValue v) { return v != TeraHeapCards::clean && v != TeraHeapCards::summarized; },
                [=](jlong label, bool refers_to_h1, bool moved) {
                  const int i = pending_index(label);
                  if (i >= 0 && (refers_to_h1 || moved)) {
                    Atomic::store(&still[i], true);
                  }
                },
                &raised);
  if (Atomic::load(&shared->h2_full)) {
    // Some regions were not walked: the pause reads their cards.
    FREE_C_HEAP_ARRAY(volatile bool, still);
    return moved;
  }
  _cards_raised = true;
  log_debug(gc, teraheap)("Raised " SIZE_FORMAT " oldgen cards of pending labels for the pause to read", raised);
  for (int i = pending - 1; i >= 0; i--) {
    if (!still[i]) {
      _pending->remove_at(i);
    }
  }
  FREE_C_HEAP_ARRAY(volatile bool, still);
  if (_pending->length() < pending) {
    refresh_pending_regions(regions);
  }
  log_debug(gc, teraheap)("Pending labels whose groups pauses left in part in H1: %d, %d done",
                          _pending->length(), pending - _pending->length());
  return moved;
}

TeraHeapLeftBehind::Moved TeraHeapLeftBehind::move(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                                                   TeraHeapMoveShared* shared) {
  if (_pending != NULL) {
    _pending->clear();
    refresh_pending_regions(regions);
  }
  if (!any()) {
    return Moved();
  }
  const Moved moved =
    walk_labels(regions, singletons, shared,
                [&](uint r) { return _labels->contains(regions->label(r)); },
                [](TeraHeapCards::CardValue v) { return v != TeraHeapCards::clean; },
                [](jlong label, bool refers_to_h1, bool moved) {});
  if (!Atomic::load(&shared->h2_full)) {
    _labels->clear();
  }
  return moved;
}
