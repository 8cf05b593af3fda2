/*
 * Which regions a full GC keeps, found while it marks.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/parallelScavengeHeap.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "gc/teraheap/teraHeapCardStats.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapLiveness.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/klass.inline.hpp"
#include "runtime/atomic.hpp"

volatile bool TeraHeapLiveness::_reading = false;

// Marks through a live region's card: H1 referents are marked and pushed,
// H2 referents make their regions live.
class TeraHeapMarkClosure : public TeraHeapCardClosure {
  ParCompactionManager* _cm;
public:
  TeraHeapMarkClosure(ParCompactionManager* cm, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _cm(cm) {}

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeapAddressSpace::contains(o)) {
      // Only live regions' cards are read: the target lives too. (Also when
      // the field's object is dead: a region that stays must not refer into
      // one that an evacuation frees.)
      link(o);
      TeraHeapLiveness::mark_reached(_regions, o);
    } else {
      _cm->mark_and_push(p);
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// Whether the program wrote a card of start region r since the last collection.
static bool has_dirty_card(TeraHeapRegions* regions, uint r) {
  const MemRegion used = regions->used(r);
  if (used.is_empty()) {
    return false;
  }
  CardTable::CardValue* const end = TeraHeapCards::end_card(used);
  for (CardTable::CardValue* card = TeraHeapCards::first_card(used); card < end; ) {
    CardTable::CardValue* const page_end = MIN2(end, align_down(card, os::vm_page_size()) + os::vm_page_size());
    if (TeraHeapCardResidency::is_resident(card) && memchr(card, TeraHeapCards::dirty, page_end - card) != NULL) {
      return true;
    }
    card = page_end;
  }
  return false;
}

// Reads the non-clean cards of `region`, a live one, as a source of roots; its
// summarized cards are left for read_unconfirmed_summaries if they may be.
static void mark_cards(TeraHeapRegions* regions, uint region, ParCompactionManager* cm) {
  TeraHeapMarkClosure cl(cm, regions);
  if (!TeraHeapBackwardTargets::is_empty(region) && has_dirty_card(regions, region)) {
    TeraHeapBackwardTargets::note_written(region);
  }
  const bool skip_summarized = TeraHeapBackwardTargets::may_skip(region);
  if (!TeraHeapBackwardTargets::is_empty(region) && !skip_summarized) {
    TeraHeapBackwardTargets::set_stale(region);   // read now: remembered anew by the adjust step
  }
  bool found = false;
  size_t counts[TeraHeapCardStats::states] = {0, 0, 0};
  TeraHeapCardWalker::walk(regions, region, true,
                           [&](TeraHeapCards::CardValue v) {
                             return v != TeraHeapCards::clean && (!skip_summarized || v != TeraHeapCards::summarized);
                           },
                           [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                             found = true;
                             if (*card == TeraHeapCards::dirty) {
                               regions->note_written(region);
                             }
                             counts[TeraHeapCardStats::state_index(*card)]++;
                             cl.start_card(mr);
                             TeraHeapCardWalker::iterate_fields(obj, mr, &cl);
                           });
  if (skip_summarized) {
    TeraHeapBackwardTargets::list_skipped(region);
  }
  // A region whose cards are all clean has nothing for the adjust step.
  regions->set_has_cards(region, found || !TeraHeapBackwardTargets::is_empty(region));
  TeraHeapCardStats::add_marked(counts);
}

// Reads the summarized cards of `region`, whose summary named an object that
// marking had not reached.
static void mark_summarized_cards(TeraHeapRegions* regions, uint region, ParCompactionManager* cm) {
  TeraHeapMarkClosure cl(cm, regions);
  TeraHeapCardWalker::walk(regions, region, false,
                           [](TeraHeapCards::CardValue v) { return v == TeraHeapCards::summarized; },
                           [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                             cl.start_card(mr);
                             TeraHeapCardWalker::iterate_fields(obj, mr, &cl);
                           });
}

// Reads the summarized cards of the given regions, claimed one at a time, and
// marks what they lead to. On the GC workers, never the VM thread: marking
// discovers references, and a parallel marking's discovery files each on
// the list of the worker that found it.
class TeraHeapMarkSummarizedTask : public AbstractGangTask {
  TeraHeapRegions* const _regions;
  const GrowableArrayCHeap<uint, mtGC>& _stale;
  volatile int _next;

public:
  TeraHeapMarkSummarizedTask(TeraHeapRegions* regions, const GrowableArrayCHeap<uint, mtGC>& stale) :
    AbstractGangTask("TeraHeap mark summarized cards"), _regions(regions), _stale(stale), _next(0) {}

  void work(uint worker_id) {
    ParCompactionManager* cm = ParCompactionManager::gc_thread_compaction_manager(worker_id);
    for (int k = Atomic::fetch_and_add(&_next, 1); k < _stale.length(); k = Atomic::fetch_and_add(&_next, 1)) {
      mark_summarized_cards(_regions, _stale.at(k), cm);
    }
    cm->follow_marking_stacks();
  }
};


void TeraHeapLiveness::prepare(TeraHeapRegions* regions) {
  regions->clear_live();
  Atomic::store(&_reading, false);
}

// Drains the queue of live regions, and what reading them marks. A worker
// whose stacks and the queue are empty steals from the others' stacks; when
// there is nothing to steal it stops, and what the others still mark (and
// the regions that queues) they finish themselves: a worker's loop ends only
// once its stacks and the queue are empty.
class TeraHeapReadRegionsTask : public AbstractGangTask {
public:
  TeraHeapReadRegionsTask() : AbstractGangTask("TeraHeap read live regions") {}

  void work(uint worker_id) {
    ParCompactionManager* cm = ParCompactionManager::gc_thread_compaction_manager(worker_id);
    for (;;) {
      cm->follow_marking_stacks();
      ObjArrayTask task;
      oop obj;
      if (ParCompactionManager::steal_objarray(worker_id, task)) {
        cm->follow_array((objArrayOop)task.obj(), task.index());
      } else if (ParCompactionManager::steal(worker_id, obj)) {
        cm->follow_contents(obj);
      } else {
        return;
      }
    }
  }
};

void TeraHeapLiveness::read_reached_regions(TeraHeapRegions* regions) {
  Atomic::release_store(&_reading, true);
  if (!regions->has_pending()) {
    return;
  }
  TeraHeapReadRegionsTask task;
  ParallelScavengeHeap::heap()->workers().run_task(&task);
}

void TeraHeapLiveness::mark_reached(TeraHeapRegions* regions, oop obj) {
  regions->mark_live(regions->raw_index_of(obj));
  TeraHeapEvacuation::reached(obj);
}

bool TeraHeapLiveness::mark_from_live_region(TeraHeapRegions* regions, ParCompactionManager* cm) {
  if (!Atomic::load_acquire(&_reading)) {
    return false;
  }
  const uint r = regions->claim_pending();
  if (r == UINT_MAX) {
    return false;
  }
  // Links inside a label were recorded when its group moved (or when a minor
  // GC found them on a written card) and stand for references on clean cards.
  GrowableArrayCHeap<uint, mtGC>* deps = regions->dependencies(r);
  for (int k = 0; deps != NULL && k < deps->length(); k++) {
    regions->mark_live(deps->at(k));
  }
  // The collector never traces H2: the classes of a live region's objects
  // must not unload under them.
  GrowableArrayCHeap<Klass*, mtGC>* klasses = regions->klasses(r);
  for (int k = 0; klasses != NULL && k < klasses->length(); k++) {
    oop mirror = klasses->at(k)->java_mirror_no_keepalive();
    if (mirror != NULL) {
      cm->mark_and_push(&mirror);
    }
    cm->follow_klass(klasses->at(k));
  }
  if (TeraHeapEvacuation::is_traced_region(regions->bottom(r))) {
    // The trace marks what its reached objects refer to. The cards stay for
    // the adjust step, which reads them all: what the region remembers for
    // its summarized cards may name objects only dead ones referred to.
    regions->set_has_cards(r, true);
    if (!TeraHeapBackwardTargets::is_empty(r)) {
      TeraHeapBackwardTargets::set_stale(r);
    }
    return true;
  }
  mark_cards(regions, r, cm);
  return true;
}

void TeraHeapLiveness::read_unconfirmed_summaries(TeraHeapRegions* regions) {
  const GrowableArrayCHeap<uint, mtGC>& stale = TeraHeapBackwardTargets::confirm();
  if (stale.is_nonempty()) {
    TeraHeapMarkSummarizedTask task(regions, stale);
    ParallelScavengeHeap::heap()->workers().run_task(&task);
  }
  TeraHeapBackwardTargets::confirmed();
}
