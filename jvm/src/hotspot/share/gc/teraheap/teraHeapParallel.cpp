/*
 * The Parallel collector's facade: its hooks that pass Parallel's own types.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/parallelScavengeHeap.inline.hpp"
#include "gc/parallel/psCardTable.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/parallel/psOldGen.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/parallel/psPromotionManager.inline.hpp"
#include "gc/parallel/psVirtualspace.hpp"
#include "gc/parallel/psYoungGen.hpp"
#include "gc/shared/genArguments.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardAdjust.inline.hpp"
#include "gc/teraheap/teraHeapCardScavenge.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapForwarding.hpp"
#include "gc/teraheap/teraHeapLiveness.inline.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapParallel.inline.hpp"
#include "gc/teraheap/teraHeapRedirect.hpp"
#include "gc/teraheap/teraHeapTrace.inline.hpp"
#include "runtime/atomic.hpp"
#include "oops/oop.inline.hpp"

// A GC worker's adjust step for H2's fields, in the full GC's adjust phase.
class TeraHeapParallelAdjuster {
  ParCompactionManager* const _cm;
public:
  TeraHeapParallelAdjuster(uint worker_id) : _cm(ParCompactionManager::gc_thread_compaction_manager(worker_id)) {}
  template <class T> void adjust(T* p) { PSParallelCompact::adjust_pointer(p, _cm); }
  bool is_young(oop obj) const { return ParallelScavengeHeap::heap()->is_in_young(obj); }
  // Parallel moves old objects in full GCs only, which read all of H2's cards.
  void old_target(oop obj) {}
};

// The Parallel collector as TeraHeap's collector-independent part sees it.
class TeraHeapParallelCollector : public TeraHeapCollector {
  uint _stress_labels;   // labels given to stress moves' groups so far

public:
  TeraHeapParallelCollector() : _stress_labels(0) {}

  virtual WorkGang* workers() { return &ParallelScavengeHeap::heap()->workers(); }

  // Parallel's card table covers the whole reservation, H2 included.
  virtual CardTable::CardValue* h2_cards(MemRegion h2) {
    return ParallelScavengeHeap::heap()->card_table()->byte_for(h2.start());
  }

  virtual bool is_young(oop obj) { return ParallelScavengeHeap::heap()->is_in_young(obj); }

  virtual bool is_marked(oop obj) { return PSParallelCompact::mark_bitmap()->is_marked(obj); }

  // The old copy leaves what the full GC keeps: its mark bits, and its words
  // in the per-region live data the summary phase adds up. Other workers do
  // the same for objects beside it, so both change atomically. Where it went
  // is kept aside too: a dense prefix's filler may overwrite its mark word.
  virtual void moved(oop old_copy, oop copy, size_t words) {
    ParallelCompactData& sd = PSParallelCompact::summary_data();
    HeapWord* const beg = cast_from_oop<HeapWord*>(old_copy);
    if (TeraHeapParallelMarks::may_overwrite_header(beg)) {
      TeraHeapForwarding::keep(old_copy, copy);
    }
    HeapWord* const last = beg + words - 1;
    PSParallelCompact::mark_bitmap()->par_unmark_obj(beg, words);

    const size_t beg_region = sd.addr_to_region_idx(beg);
    const size_t end_region = sd.addr_to_region_idx(last);
    ParallelCompactData::RegionData* first = sd.region(beg_region);
    if (beg_region == end_region) {
      first->sub_live_obj(words);
      return;
    }
    first->sub_live_obj(ParallelCompactData::RegionSize - sd.region_offset(beg));
    // The regions the object reaches into hold only its own record.
    for (size_t r = beg_region + 1; r <= end_region; r++) {
      sd.region(r)->set_partial_obj_size(0);
      sd.region(r)->set_partial_obj_addr(NULL);
    }
  }

  virtual size_t h1_capacity_words() { return ParallelScavengeHeap::old_gen()->max_gen_size() / HeapWordSize; }
  // The generations' committed sizes, survivor spaces and slack included.
  virtual size_t h1_committed_bytes() {
    return ParallelScavengeHeap::young_gen()->virtual_space()->committed_size() +
           ParallelScavengeHeap::old_gen()->virtual_space()->committed_size();
  }
  virtual size_t h1_resize_granule() { return GenAlignment; }

  // From the full GC's per-region summary.
  virtual size_t h1_live_words() {
    const MemRegion h1 = TeraHeap::h1_reserved_region();
    ParallelCompactData& sd = PSParallelCompact::summary_data();
    const size_t end = MIN2(sd.region_count(), sd.addr_to_region_idx(sd.region_align_up(h1.end())));
    size_t live = 0;
    for (size_t i = sd.addr_to_region_idx(h1.start()); i < end; i++) {
      live += sd.region(i)->data_size();
    }
    return live;
  }

  // The old generation is cut into stress_stripes; the first live object of
  // each that may move is a root, with its closure, under a label of its own
  // (as a program tags its groups: a group that dies frees its regions).
  static const int stress_stripes = 8;

  virtual void stress_move(TeraHeapMover* mover, size_t budget_words) {
    ParMarkBitMap* bitmap = PSParallelCompact::mark_bitmap();
    MutableSpace* old_space = ParallelScavengeHeap::old_gen()->object_space();
    const size_t start = mover->words_moved();
    HeapWord* const bottom = old_space->bottom();
    HeapWord* const top = old_space->top();
    const size_t stripe = pointer_delta(top, bottom) / stress_stripes;
    for (int k = 0; k < stress_stripes && stripe > 0; k++) {
      if (mover->h2_full() || mover->words_moved() - start >= budget_words) {
        return;
      }
      HeapWord* const end = MIN2(top, bottom + (k + 1) * stripe);
      // The last object of a stripe may reach past its end.
      for (HeapWord* p = bitmap->find_obj_beg(bottom + k * stripe, end); p < end;
           p = bitmap->find_obj_beg(MIN2(p + cast_to_oop(p)->size(), end), end)) {
        if (mover->can_move(cast_to_oop(p))) {
          mover->move_group(cast_to_oop(p), min_jlong + _stress_labels++);
          break;
        }
      }
    }
  }

  // Parallel's summary phase may write a filler over an old copy, so moves
  // are looked up in a table of their own (TeraHeapForwarding), and live H1
  // objects are redirected now, before compaction.
  virtual void moves_done() {
    TeraHeapForwarding::moves_done();
    TeraHeapRedirect::redirect_h1_references();
  }

  virtual void adjust_cards(TeraHeapRegions* regions) {
    TeraHeapCardAdjust::adjust<TeraHeapParallelAdjuster>(regions);
  }

  virtual void adjust_done() {
    TeraHeapForwarding::clear();
  }
};

ReservedSpace TeraHeapParallel::initialize(ReservedSpace heap_rs) {
  assert(TeraHeapCards::youngergen == PSCardTable::youngergen_card_val(), "our card values are the card table's");
  TeraHeapForwarding::initialize();
  return TeraHeap::initialize(heap_rs, new TeraHeapParallelCollector());
}

// Drains the queue of live regions, and what reading them marks. A worker
// whose stacks and the queue are empty steals from the others' stacks; when
// there is nothing to steal it stops, and what the others still mark (and
// the regions that queues) they finish themselves: a worker's loop ends only
// once its stacks and the queue are empty (follow_marking_stacks reads queued
// regions through mark_through_h2).
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
      TeraHeapLiveness::mark_summarized_cards(_regions, _stale.at(k), cm);
    }
    cm->follow_marking_stacks();
  }
};

void TeraHeapParallel::marked_from_roots() {
  TeraHeapRegions* const regions = TeraHeap::regions();
  // Tagged roots in H2 that marking reaches from here on are reached through
  // H2's cards: they may be held only by their own group.
  TeraHeapEvacuation::end_marking_from_roots();
  if (TeraHeapLiveness::start_reading(regions)) {
    TeraHeapReadRegionsTask task;
    ParallelScavengeHeap::heap()->workers().run_task(&task);
  }
  const GrowableArrayCHeap<uint, mtGC>& stale = TeraHeapBackwardTargets::confirm();
  if (stale.is_nonempty()) {
    TeraHeapMarkSummarizedTask task(regions, stale);
    ParallelScavengeHeap::heap()->workers().run_task(&task);
  }
  TeraHeapBackwardTargets::confirmed();
}

bool TeraHeapParallel::mark_through_h2(ParCompactionManager* cm) {
  return TeraHeapLiveness::mark_from_live_region(TeraHeap::regions(), cm) || TeraHeapTrace::trace(cm);
}

void TeraHeapParallel::scavenge_backward_references(uint worker_id, uint workers) {
  PSPromotionManager* pm = PSPromotionManager::gc_thread_promotion_manager(worker_id);
  TeraHeapCardScavenge::scavenge(TeraHeap::regions(), pm, worker_id, workers);
  pm->drain_stacks(false);
}
