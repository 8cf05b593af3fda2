/*
 * The G1 collector's facade: its hooks that pass G1's own types.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CardTable.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1CollectionSet.hpp"
#include "gc/g1/g1CollectionSetCandidates.hpp"
#include "gc/g1/g1FullCollector.inline.hpp"
#include "gc/g1/g1FullGCMarker.inline.hpp"
#include "gc/g1/g1FullGCOopClosures.inline.hpp"
#include "gc/g1/g1GCPhaseTimes.hpp"
#include "gc/g1/g1RegionToSpaceMapper.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/g1/heapRegionRemSet.hpp"
#include "gc/shared/taskTerminator.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardAdjust.inline.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapEvents.hpp"
#include "gc/teraheap/teraHeapForwarding.hpp"
#include "gc/teraheap/teraHeapG1.inline.hpp"
#include "gc/teraheap/teraHeapG1CardScan.hpp"
#include "gc/teraheap/teraHeapG1Marking.hpp"
#include "gc/teraheap/teraHeapG1MarkingScan.hpp"
#include "gc/teraheap/teraHeapG1RootRegions.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "gc/teraheap/teraHeapLiveness.inline.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapRoots.hpp"
#include "gc/teraheap/teraHeapTrace.inline.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "gc/teraheap/teraheap_globals.hpp"
#include "logging/log.hpp"
#include "runtime/atomic.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"
#include "utilities/debug.hpp"

// G1 as TeraHeap's collector-independent part sees it.
class TeraHeapG1Collector : public TeraHeapCollector {
  ReservedSpace         _g1_cards;   // the upper part of the card reservation, for G1's mapper
  CardTable::CardValue* _h2_cards;   // the lower part: the card of H2's first address
  G1FullCollector*      _full_gc;    // the full GC under way, or the last one
  uint                  _stress_labels;   // labels given to stress moves' groups so far
  bool                  _pause_moving;    // a young or mixed pause moves groups

public:
  TeraHeapG1Collector(ReservedSpace g1_cards, CardTable::CardValue* h2_cards) :
    _g1_cards(g1_cards), _h2_cards(h2_cards), _full_gc(NULL), _stress_labels(0), _pause_moving(false) {}

  void set_pause_moving(bool moving) { _pause_moving = moving; }

  ReservedSpace g1_cards() const { return _g1_cards; }
  G1FullCollector* full_gc() const { return _full_gc; }
  void set_full_gc(G1FullCollector* full_gc) { _full_gc = full_gc; }

  virtual WorkGang* workers() { return G1CollectedHeap::heap()->workers(); }
  virtual CardTable::CardValue* h2_cards(MemRegion h2) { return _h2_cards; }
  virtual bool is_young(oop obj) { return G1CollectedHeap::heap()->heap_region_containing(obj)->is_young(); }
  virtual bool tracks_old_target(uint region, oop obj) {
    const HeapRegion* hr = G1CollectedHeap::heap()->heap_region_containing(obj);
    return TeraHeapG1Targets::bars_mixed(hr) ||
           (TeraHeapG1Targets::contains(hr) && TeraHeapLeftBehind::is_pending_region(region));
  }
  virtual size_t h1_capacity_words() { return G1CollectedHeap::heap()->max_capacity() / HeapWordSize; }
  virtual size_t h1_committed_bytes() { return G1CollectedHeap::heap()->capacity(); }
  virtual size_t h1_resize_granule() { return HeapRegion::GrainBytes; }
  virtual bool h1_uncommit_pending() { return G1CollectedHeap::heap()->has_uncommittable_regions(); }

  // CDS's archived objects count as unmarked: they stay where the archive
  // mapped them (closed ones are never marked; open ones are pinned). In a
  // pause, what G1 would evacuate may move, and a humongous type array that
  // the pause may reclaim eagerly and whose remembered set is empty: G1 then
  // finds every reference to it in the pause (roots, young objects, the cards
  // of the log buffers) but those of compiled code, so one that compiled code
  // embeds stays. A candidate's remembered set may hold a few cards, which the
  // merge reads only while the region is still a candidate.
  virtual bool is_marked(oop obj) {
    if (_pause_moving) {
      G1CollectedHeap* const g1h = G1CollectedHeap::heap();
      const G1HeapRegionAttr attr = g1h->region_attr(obj);
      if (attr.is_in_cset()) {
        return true;
      }
      // Empty: no card and no code root.
      return attr.is_humongous() && g1h->heap_region_containing(obj)->rem_set()->is_empty();
    }
    return TeraHeapG1Marks::is_marked(obj) && !G1CollectedHeap::heap()->heap_region_containing(obj)->is_archive();
  }

  virtual bool pause_may_collect(oop obj) {
    if (!_pause_moving) {
      return false;
    }
    const G1HeapRegionAttr attr = G1CollectedHeap::heap()->region_attr(obj);
    return attr.is_in_cset() || attr.is_optional() || attr.is_humongous();
  }

  virtual bool redirects_unmoved_root(oop root) {
    if (!_pause_moving) {
      return false;
    }
    const HeapRegion* hr = G1CollectedHeap::heap()->heap_region_containing(root);
    return !hr->in_collection_set() && !hr->is_archive();
  }

  // The old copy leaves the bitmap, so that compaction packs what stays, and
  // its words leave its region's live count, so that a region emptied by
  // moves is compacted rather than skipped as full. Other workers do the same
  // for objects beside it: both change atomically.
  virtual void moved(oop old_copy, oop copy, size_t words) {
    if (_pause_moving) {
      // The old copy dies with its region. During a marking cycle, what
      // arrives in H2 lives through it, as what is allocated after its start.
      TeraHeapG1Marking::reached(copy);
      G1CollectedHeap* const g1h = G1CollectedHeap::heap();
      if (g1h->region_attr(old_copy).is_humongous()) {
        // A humongous array joins the collection set: evacuation sends every
        // reference it finds to the copy, as for any forwarded object, and
        // never marks the array live, so eager reclaim frees its regions. Its
        // attribute goes back to the default before it can be set anew.
        HeapRegion* const hr = g1h->heap_region_containing(old_copy);
        g1h->set_humongous_is_live(old_copy);
        g1h->set_humongous_reclaim_candidate(hr->hrm_index(), true);
        g1h->register_old_region_with_region_attr(hr);
      }
      return;
    }
    if (TeraHeapG1Marks::may_overwrite_header(cast_from_oop<HeapWord*>(old_copy))) {
      TeraHeapForwarding::keep(old_copy, copy);
    }
    _full_gc->mark_bitmap()->par_clear(old_copy);
    _full_gc->sub_live_words(G1CollectedHeap::heap()->addr_to_region(cast_from_oop<HeapWord*>(old_copy)), words);
  }

  // From the full GC's per-region live counts (flushed by TeraHeapG1::collect).
  virtual size_t h1_live_words() {
    size_t live = 0;
    for (uint i = 0; i < G1CollectedHeap::heap()->max_regions(); i++) {
      live += _full_gc->live_words(i);
    }
    return live;
  }

  // G1's regions are cut into stress_stripes; in each, the first marked
  // object of an old region that may move is a root, with its closure, under
  // a label of its own (as Parallel's stress move does over its old space).
  static const uint stress_stripes = 8;

  virtual void stress_move(TeraHeapMover* mover, size_t budget_words) {
    G1CollectedHeap* const g1h = G1CollectedHeap::heap();
    G1CMBitMap* const bitmap = _full_gc->mark_bitmap();
    const size_t start = mover->words_moved();
    const uint stripe = g1h->max_reserved_regions() / stress_stripes;
    for (uint k = 0; k < stress_stripes && stripe > 0; k++) {
      if (mover->h2_full() || mover->words_moved() - start >= budget_words) {
        return;
      }
      oop root = NULL;
      for (uint i = k * stripe; i < (k + 1) * stripe && root == NULL; i++) {
        HeapRegion* hr = g1h->region_at_or_null(i);
        if (hr == NULL || !hr->is_old()) {
          continue;
        }
        for (HeapWord* p = bitmap->get_next_marked_addr(hr->bottom(), hr->top()); p < hr->top();
             p = bitmap->get_next_marked_addr(p + cast_to_oop(p)->size(), hr->top())) {
          if (mover->can_move(cast_to_oop(p))) {
            root = cast_to_oop(p);
            break;
          }
        }
      }
      if (root != NULL) {
        mover->move_group(root, min_jlong + _stress_labels++);
      }
    }
  }

  // G1's adjust phase visits every live object, the roots and the code
  // cache, so references to old copies are adjusted there (TeraHeapG1::
  // adjust_pointer); only the moves whose header G1 may overwrite are kept.
  virtual void moves_done() { TeraHeapForwarding::moves_done(); }
  virtual void adjust_cards(TeraHeapRegions* regions);
  virtual void adjust_done() { TeraHeapForwarding::clear(); }
};

const void* TeraHeapG1::_h2_cards_end = NULL;

static TeraHeapG1Collector* g1_collector() {
  return static_cast<TeraHeapG1Collector*>(TeraHeapCollector::current());
}

ReservedSpace TeraHeapG1::heap_part(ReservedSpace heap_rs) {
  return heap_rs.last_part(TeraHeap::reserved_size());
}

void TeraHeapG1::initialize(ReservedSpace heap_rs) {
  // G1's barrier skips a store whose field and value share one of its
  // regions: an H2 region must never share one with another H2 region.
  if (TeraHeapRegionSize < HeapRegion::GrainBytes) {
    TeraHeapStartupError::fail("-XX:TeraHeapRegionSize=" TH_SIZE_FORMAT " is smaller than G1's region size ("
                               TH_SIZE_FORMAT "): give at least that, or a smaller -XX:G1HeapRegionSize",
                               TH_SIZE_ARGS(TeraHeapRegionSize), TH_SIZE_ARGS(HeapRegion::GrainBytes));
  }
  // H2's cards span its whole reservation, so that they end where G1's begin.
  // HeapAlignment is at least a card per page of card bytes: a page boundary.
  const size_t h2_reserved = TeraHeap::reserved_size();
  const size_t h2_cards = h2_reserved >> CardTable::card_shift;
  const size_t g1_cards = G1CardTable::compute_size((heap_rs.size() - h2_reserved) / HeapWordSize);
  assert(is_aligned(h2_cards, os::vm_page_size()), "H2's cards end on a page boundary");
  // Small pages: H2's cards are committed, watched and given back page by page.
  ReservedSpace cards(h2_cards + g1_cards, os::vm_page_size());
  if (!cards.is_reserved()) {
    TeraHeapStartupError::fail("could not reserve " TH_SIZE_FORMAT " of address space for the card table of H2 "
                               "and G1's heap: give a smaller -XX:TeraHeapSize or -Xmx", TH_SIZE_ARGS(h2_cards + g1_cards));
  }
  _h2_cards_end = cards.base() + h2_cards;
  TeraHeapForwarding::initialize();
  const uint g1_regions = (uint)((heap_rs.size() - h2_reserved) / HeapRegion::GrainBytes);
  TeraHeapG1Targets::initialize(g1_regions);
  TeraHeapG1RootRegions::initialize(g1_regions);
  TeraHeapG1Collector* collector = new TeraHeapG1Collector(cards.last_part(h2_cards),
                                                           (CardTable::CardValue*)cards.base());
  log_debug(gc, init)("TeraHeap card table: H2's [" PTR_FORMAT ", " PTR_FORMAT "), G1's [" PTR_FORMAT ", " PTR_FORMAT ")",
                      p2i(cards.base()), p2i(cards.base() + h2_cards), p2i(cards.base() + h2_cards),
                      p2i(cards.base() + h2_cards + g1_cards));
  const ReservedSpace h1 = TeraHeap::initialize(heap_rs, collector);
  TeraHeapG1Marking::initialize(TeraHeap::regions());
  assert(h1.base() == heap_part(heap_rs).base() && h1.size() == heap_part(heap_rs).size(), "G1 has the rest");
}

G1RegionToSpaceMapper* TeraHeapG1::card_table_mapper(size_t size, size_t translation_factor) {
  const ReservedSpace rs = g1_collector()->g1_cards();
  assert(rs.size() == size, "G1's card array is the size reserved for it");
  G1RegionToSpaceMapper* mapper = G1RegionToSpaceMapper::create_mapper(rs, size, rs.page_size(), HeapRegion::GrainBytes,
                                                                       translation_factor, mtGC);
  os::trace_page_sizes_for_requested_size("Card Table", size, rs.page_size(), rs.page_size(), rs.base(), rs.size());
  return mapper;
}

// A GC worker's adjust step for H2's fields, after G1's adjust phase.
class TeraHeapG1Adjuster {
  G1AdjustClosure _closure;
public:
  TeraHeapG1Adjuster(uint worker_id) : _closure(g1_collector()->full_gc()) {}
  template <class T> void adjust(T* p) { _closure.do_oop_work(p); }
  // A full GC leaves no young region: every object it keeps is old.
  bool is_young(oop obj) const { return false; }
  void old_target(oop obj) { TeraHeapG1Targets::add(obj); }
};

void TeraHeapG1Collector::adjust_cards(TeraHeapRegions* regions) {
  // The regions H2 refers into, anew: from the cards read, then from the
  // summaries of those left summarized.
  TeraHeapG1Targets::clear();
  TeraHeapCardAdjust::adjust<TeraHeapG1Adjuster>(regions);
  for (int k = 0; k < regions->in_use_count(); k++) {
    TeraHeapBackwardTargets::targets_do(regions->in_use_region(k), [](oop o) { TeraHeapG1Targets::add(o); });
  }
  log_debug(gc, teraheap)("H2 refers into " SIZE_FORMAT " G1 regions from cards pauses do not read",
                          TeraHeapG1Targets::count());
}

void TeraHeapG1::scan_h2_cards(G1ParScanThreadState* pss, uint worker_id, uint workers) {
  // Counted as root scanning, less the time spent copying what the cards
  // lead to, which is G1's object copy (as G1's own root scanning counts it).
  Tickspan total;
  Tickspan trim;
  {
    G1EvacPhaseWithTrimTimeTracker timer(pss, total, trim);
    TeraHeapG1CardScan::scan(TeraHeap::regions(), pss, worker_id, workers);
  }
  G1GCPhaseTimes* const times = G1CollectedHeap::heap()->phase_times();
  times->record_or_add_time_secs(G1GCPhaseTimes::ExtRootScan, worker_id, (total - trim).seconds());
  times->record_or_add_time_secs(G1GCPhaseTimes::ObjCopy, worker_id, trim.seconds());
}

bool TeraHeapG1::is_h2_target(const HeapRegion* hr) {
  return TeraHeapG1Targets::contains(hr);
}

bool TeraHeapG1::is_mixed_h2_target(const HeapRegion* hr) {
  return TeraHeapG1Targets::bars_candidates(hr);
}

bool TeraHeapG1::bars_optional_region(const HeapRegion* hr) {
  if (!TeraHeapG1Targets::stops_optional(hr)) {
    return false;
  }
  log_debug(gc, teraheap)("Optional evacuation stops at region %u, which H2 refers into", hr->hrm_index());
  return true;
}

// G1 clears the remembered set of a candidate it gives up.
static bool drop_if_h2_target(HeapRegion* hr) {
  if (!TeraHeapG1Targets::bars_mixed(hr)) {
    return false;
  }
  hr->rem_set()->clear_locked(true /* only_cardset */);
  return true;
}

void TeraHeapG1::drop_h2_target_candidates(G1CollectionSetCandidates* candidates) {
  const uint before = candidates->num_remaining();
  candidates->remove_if(drop_if_h2_target);
  if (candidates->num_remaining() < before) {
    log_debug(gc, teraheap)("Gave up %u mixed collection candidates H2 refers into", before - candidates->num_remaining());
  }
}

void TeraHeapG1::pre_evacuate() {
  TeraHeapG1Targets::pause_begins();
  TeraHeapLeftBehind::pause_begins();
  if (!TeraHeapG1MoveInPauses) {
    return;
  }
  g1_collector()->set_pause_moving(true);
  const bool mixed = G1CollectedHeap::heap()->collection_set()->old_region_length() > 0;
  TeraHeap::move_in_pause(mixed && !TeraHeapG1RootRegions::is_empty(), mixed);
  g1_collector()->set_pause_moving(false);
}

void TeraHeapG1::marking_begins() {
  // The cycle reads the cards of the regions it finds live: what H2 refers
  // into is found anew, after the labels that stop pending do (their oldgen
  // cards are no longer read by mixed pauses).
  TeraHeapLeftBehind::cycle_begins(TeraHeap::regions());
  TeraHeapG1Targets::begin_building();
  TeraHeapG1RootRegions::clear();
  TeraHeapG1Marking::begin();
}

void TeraHeapG1::marking_undone() {
  TeraHeapG1Marking::abort();
  TeraHeapG1Targets::abandon_building();
}

void TeraHeapG1::read_reached_regions(G1CMTask* task) {
  TeraHeapG1MarkingScan::read_regions(TeraHeap::regions(), task);
}

bool TeraHeapG1::has_reached_regions() {
  return TeraHeapG1Marking::has_regions_to_read();
}

void TeraHeapG1::marking_complete() {
  TeraHeapG1Marking::marking_complete();
}

void TeraHeapG1::marking_done() {
  TeraHeapG1Marking::marking_done();
  // Every live region's cards are read: the regions H2 refers into from
  // them, and from what the pauses meanwhile read.
  TeraHeapG1Targets::install_built();
  const size_t freed = TeraHeap::free_dead_regions();
  // Weak processing has cleared the handles of dead roots.
  TeraHeapRoots::sweep_soon();
  TeraHeapG1RootRegions::find();
  TeraHeapRegions* const regions = TeraHeap::regions();
  if (freed > 0) {
    TeraHeapEvents::regions_freed(freed, freed * TeraHeapRegionSize, regions->regions_in_use(), regions->used_bytes());
  }
  log_info(gc, teraheap)("Marking freed " SIZE_FORMAT " regions; H2 used " SIZE_FORMAT "M of " SIZE_FORMAT "M in "
                         SIZE_FORMAT " regions", freed, regions->used_bytes() / M, TeraHeap::h2_region().byte_size() / M,
                         regions->regions_in_use());
}

void TeraHeapG1::full_gc_prepare(G1FullCollector* collector) {
  // A full GC abandons a marking cycle under way, and decides anew.
  TeraHeapG1Marking::abort();
  TeraHeapG1Targets::abandon_building();
  TeraHeapG1RootRegions::clear();
  g1_collector()->set_full_gc(collector);
  TeraHeap::prepare_marking();
}

// Reads the live regions the marking from roots queued, and what they lead
// to, on all of the full GC's workers, with G1's own stealing and
// termination (a marker's stacks run dry only once the queue is empty too:
// mark_through_h2).
class TeraHeapG1ReadRegionsTask : public AbstractGangTask {
  G1FullCollector* const _collector;
  TaskTerminator _terminator;

public:
  TeraHeapG1ReadRegionsTask(G1FullCollector* collector) :
    AbstractGangTask("TeraHeap read live regions"), _collector(collector),
    _terminator(collector->workers(), collector->array_queue_set()) {}

  void work(uint worker_id) {
    G1FullGCMarker* marker = _collector->marker(worker_id);
    marker->complete_marking(_collector->oop_queue_set(), _collector->array_queue_set(), &_terminator);
    marker->flush_mark_stats_cache();
  }
};

// Reads the summarized cards of the given regions, claimed one at a time,
// and marks what they lead to. On the GC workers: marking discovers
// References onto the lists of the worker that finds them.
class TeraHeapG1MarkSummarizedTask : public AbstractGangTask {
  G1FullCollector* const _collector;
  TeraHeapRegions* const _regions;
  const GrowableArrayCHeap<uint, mtGC>& _stale;
  volatile int _next;
  TaskTerminator _terminator;

public:
  TeraHeapG1MarkSummarizedTask(G1FullCollector* collector, TeraHeapRegions* regions,
                               const GrowableArrayCHeap<uint, mtGC>& stale) :
    AbstractGangTask("TeraHeap mark summarized cards"), _collector(collector), _regions(regions),
    _stale(stale), _next(0), _terminator(collector->workers(), collector->array_queue_set()) {}

  void work(uint worker_id) {
    G1FullGCMarker* marker = _collector->marker(worker_id);
    for (int k = Atomic::fetch_and_add(&_next, 1); k < _stale.length(); k = Atomic::fetch_and_add(&_next, 1)) {
      TeraHeapLiveness::mark_summarized_cards(_regions, _stale.at(k), marker);
    }
    marker->complete_marking(_collector->oop_queue_set(), _collector->array_queue_set(), &_terminator);
    marker->flush_mark_stats_cache();
  }
};

void TeraHeapG1::marked_from_roots() {
  G1FullCollector* const collector = g1_collector()->full_gc();
  TeraHeapRegions* const regions = TeraHeap::regions();
  WorkGang* const workers = G1CollectedHeap::heap()->workers();
  // Tagged roots in H2 that marking reaches from here on are reached through
  // H2's cards: they may be held only by their own group.
  TeraHeapEvacuation::end_marking_from_roots();
  if (TeraHeapLiveness::start_reading(regions)) {
    TeraHeapG1ReadRegionsTask task(collector);
    workers->run_task(&task, collector->workers());
  }
  const GrowableArrayCHeap<uint, mtGC>& stale = TeraHeapBackwardTargets::confirm();
  if (stale.is_nonempty()) {
    TeraHeapG1MarkSummarizedTask task(collector, regions, stale);
    workers->run_task(&task, collector->workers());
  }
  TeraHeapBackwardTargets::confirmed();
}

bool TeraHeapG1::mark_through_h2(G1FullGCMarker* marker) {
  return TeraHeapLiveness::mark_from_live_region(TeraHeap::regions(), marker) || TeraHeapTrace::trace(marker);
}

void TeraHeapG1::collect() {
  // Reference processing marks into the markers' caches of live words
  // without flushing them; the thresholds and the movers need the counts.
  G1FullCollector* const collector = g1_collector()->full_gc();
  for (uint i = 0; i < collector->workers(); i++) {
    collector->marker(i)->flush_mark_stats_cache();
  }
  TeraHeap::collect();
}
