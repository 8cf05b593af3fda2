/*
 * The module's facade: what HotSpot's hooks call, in a full GC's order.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/gcArguments.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapArguments.hpp"
#include "gc/teraheap/teraHeapBacking.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardFaults.hpp"
#include "gc/teraheap/teraHeapCardStats.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapEvents.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapH1Sizer.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "gc/teraheap/teraHeapLiveness.hpp"
#include "gc/teraheap/teraHeapMoveTask.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapRoots.inline.hpp"
#include "gc/teraheap/teraHeapSingletons.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "gc/teraheap/teraHeapStorageFault.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "memory/resourceArea.hpp"
#include "oops/compressedOops.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/globals.hpp"
#include "runtime/globals_extension.hpp"
#include "runtime/os.hpp"
#include "utilities/ticks.hpp"

MemRegion           TeraHeap::_h1;
TeraHeapFile*       TeraHeap::_file = NULL;
TeraHeapBacking*    TeraHeap::_backing = NULL;
TeraHeapRegions*    TeraHeap::_regions = NULL;
size_t              TeraHeap::_bytes_moved = 0;
size_t              TeraHeap::_objects_moved = 0;
bool                TeraHeap::_reported_full = false;
size_t              TeraHeap::_regions_freed_this_gc = 0;
bool                TeraHeap::_moved_this_gc = false;

size_t TeraHeap::reserved_size() {
  return TeraHeapArguments::h2_reserved_size(HeapAlignment);
}

ReservedSpace TeraHeap::initialize(ReservedSpace heap_rs, TeraHeapCollector* collector) {
  assert(EnableTeraHeap, "only with TeraHeap on");
  TeraHeapCollector::set_current(collector);
  const size_t reserved = reserved_size();
  ReservedSpace h2_rs = heap_rs.first_part(reserved);
  ReservedSpace h1_rs = heap_rs.last_part(reserved);

  _file = TeraHeapFile::create(TeraHeapPath, TeraHeapSize);
  _file->map_at(h2_rs.base(), TeraHeapSize);
  TeraHeapAddressSpace::initialize(MemRegion((HeapWord*)h2_rs.base(), TeraHeapSize / HeapWordSize),
                                   TeraHeapRegionSize);
  const MemRegion h2 = TeraHeapAddressSpace::range();
  _h1 = MemRegion((HeapWord*)h1_rs.base(), h1_rs.size() / HeapWordSize);
  _backing = new TeraHeapBacking(_file, TeraHeapAddressSpace::region_count());
  _regions = new TeraHeapRegions(_backing);
  TeraHeapObjectStarts::initialize();
  TeraHeapBackwardTargets::initialize(_regions->count());
  TeraHeapStorageFault::initialize(_file);
  if (TeraHeapDynamicH1) {
    TeraHeapH1Sizer::initialize();
  }
  TeraHeapCards::initialize(h2, collector->h2_cards(h2));
  TeraHeapRoots::initialize();
  TeraHeapEvacuation::initialize(_regions);

  log_layout();
  return h1_rs;
}

void TeraHeap::log_layout() {
  log_info(gc, init)("TeraHeap H1: [" PTR_FORMAT ", " PTR_FORMAT ") " TH_SIZE_FORMAT " reserved",
                     p2i(_h1.start()), p2i(_h1.end()), TH_SIZE_ARGS(_h1.byte_size()));
  log_info(gc, init)("TeraHeap H2: [" PTR_FORMAT ", " PTR_FORMAT ") " TH_SIZE_FORMAT " in " SIZE_FORMAT
                     " regions of " TH_SIZE_FORMAT,
                     p2i(h2_region().start()), p2i(h2_region().end()), TH_SIZE_ARGS(h2_region().byte_size()),
                     (size_t)TeraHeapAddressSpace::region_count(), TH_SIZE_ARGS(TeraHeapRegionSize));
  log_info(gc, init)("TeraHeap H2 file: %s (%s)", _file->path(),
                     _file->is_named() ? "kept after exit" : "unlinked, removed at exit");
  if (UseCompressedOops) {
    log_info(gc, init)("TeraHeap compressed oops: on, %s (H1 + H2 fit the " TH_SIZE_FORMAT " range)",
                       CompressedOops::mode_to_string(CompressedOops::mode()),
                       TH_SIZE_ARGS((size_t)OopEncodingHeapMax));
  } else if (!FLAG_IS_DEFAULT(UseCompressedOops)) {
    log_info(gc, init)("TeraHeap compressed oops: off (-XX:-UseCompressedOops)");
  } else {
    log_info(gc, init)("TeraHeap compressed oops: off (H1 + H2 = " TH_SIZE_FORMAT " do not fit the "
                       TH_SIZE_FORMAT " range with room for H1)",
                       TH_SIZE_ARGS(_h1.byte_size() + h2_region().byte_size()),
                       TH_SIZE_ARGS((size_t)OopEncodingHeapMax));
  }
}

void TeraHeap::prepare_marking() {
  if (TeraHeapDynamicH1) {
    TeraHeapH1Sizer::h2_work_begins();
  }
  TeraHeapLiveness::prepare(_regions);
  TeraHeapEvacuation::prepare();
  TeraHeapBackwardTargets::begin_marking();
  // Marking reads live regions' cards, adjusting those of the regions that have some.
  TeraHeapCards::refresh(_regions, 0, _regions->in_use_count());
}

void TeraHeap::mark_region_live(oop obj) {
  TeraHeapLiveness::mark_reached(_regions, obj);
}

bool TeraHeap::is_in_region_in_use(const void* p) {
  return _regions->in_use(_regions->raw_index_of(p));
}

bool TeraHeap::is_alive_in_h2(oop obj) {
  if (TeraHeapEvacuation::is_traced_region(obj)) {
    return TeraHeapEvacuation::is_reached(obj);
  }
  return _regions->is_live(obj);
}

// -XX:+TeraHeapStressMove: besides the tagged groups, every full GC moves
// old objects that nobody tagged (the collector picks them), so that any
// program (OpenJDK's own GC tests among them) runs with H2 in use, until a
// quarter of H1's live data or an eighth of H2's free space has moved.
static size_t stress_budget_words(TeraHeapRegions* regions, size_t h1_live_words) {
  const size_t free_words = (TeraHeap::h2_region().byte_size() - regions->used_bytes()) / HeapWordSize;
  return MIN2(h1_live_words / 4, free_words / 8);
}

// One event per label moved: a label's groups are spread over the list.
static void report_moves(GrowableArray<TeraHeapMoveTask::Group>* groups, uint workers,
                         const Ticks& start, const Ticks& end) {
  if (!TeraHeapEvents::moves_wanted()) {
    return;
  }
  GrowableArray<TeraHeapMoveTask::Group> moved;
  for (int i = 0; i < groups->length(); i++) {
    if (groups->at(i).objects > 0) {
      moved.append(groups->at(i));
    }
  }
  moved.sort([](TeraHeapMoveTask::Group* a, TeraHeapMoveTask::Group* b) {
    return a->label < b->label ? -1 : (a->label > b->label ? 1 : 0);
  });
  for (int a = 0, b; a < moved.length(); a = b) {
    size_t objects = 0;
    size_t words = 0;
    for (b = a; b < moved.length() && moved.at(b).label == moved.at(a).label; b++) {
      objects += moved.at(b).objects;
      words += moved.at(b).words;
    }
    TeraHeapEvents::moved(moved.at(a).label, words * HeapWordSize, objects, workers, start, end);
  }
}

size_t TeraHeap::free_dead_regions() {
  const size_t freed = _regions->free_dead_regions();
  TeraHeapEvacuation::forget_freed_regions();
  if (freed > 0) {
    _reported_full = false;   // H2 has room again: warn again if it fills
  }
  if (TeraHeapDynamicH1) {
    TeraHeapH1Sizer::set_h2_data(_regions->used_bytes());
  }
  return freed;
}

void TeraHeap::collect() {
  ResourceMark rm;
  const jlong start = os::javaTimeNanos();
  const size_t freed = free_dead_regions();

  // Without hints, tagged groups move only while H1 is above the high threshold,
  // and only until it is down to the low one.
  TeraHeapCollector* const collector = TeraHeapCollector::current();
  const size_t capacity = collector->h1_capacity_words();
  const size_t live = collector->h1_live_words();
  const bool pressure = live * 100 > TeraHeapHighThreshold * capacity;
  const size_t target = TeraHeapLowThreshold * capacity / 100;

  // The live groups still in H1, in tagging order, moved on all GC workers.
  GrowableArray<TeraHeapMoveTask::Group> groups;
  bool any_movable = pressure || TeraHeapStressMove || TeraHeapLeftBehind::any();
  TeraHeapRoots::roots_do([&](oop root, jlong label) {
    if (!is_in_h2(root) && collector->is_marked(root)) {
      const bool advised = TeraHeapRoots::has_move_hint(label);
      groups.append(TeraHeapMoveTask::Group{root, label, advised, false, false, 0, 0});
      any_movable |= advised;
    }
  });
  // Read while the program's static fields still hold H1 addresses.
  const TeraHeapSingletons* singletons = any_movable ? new TeraHeapSingletons() : NULL;
  TeraHeapMoveShared shared;
  TeraHeapMoveTask task(_regions, singletons, &groups, &shared, pressure, live, target);
  const Ticks move_start = Ticks::now();
  if (any_movable && groups.is_nonempty()) {
    collector->workers()->run_task(&task);
  }
  size_t objects = task.objects_moved();
  size_t too_large = task.too_large();
  uint movers = task.workers_moving();
  report_moves(&groups, movers, move_start, Ticks::now());
  // What pauses left in H1, before the moved roots are noted: it may take
  // another group's root.
  if (TeraHeapLeftBehind::any()) {
    const TeraHeapLeftBehind::Moved left = TeraHeapLeftBehind::move(_regions, singletons, &shared);
    log_debug(gc, teraheap)("Moved " SIZE_FORMAT " objects (" SIZE_FORMAT "K) that pauses left in H1 on %u threads",
                            left.objects, left.words * HeapWordSize / K, left.movers);
    movers = MAX2(movers, left.movers);
    objects += left.objects;
    too_large += left.too_large;
  }
  // A hint is used up by the GC that moves its group; one that could not stays.
  GrowableArray<jlong> unmoved;
  for (int i = 0; i < groups.length(); i++) {
    if (groups.at(i).left) {
      unmoved.append_if_missing(groups.at(i).label);
    }
  }
  TeraHeapRoots::consume_hints(&unmoved);
  for (int i = 0; i < groups.length(); i++) {
    oop root = groups.at(i).root;
    if (root->is_forwarded()) {
      TeraHeapEvacuation::note_moved_root(root->forwardee());
    }
  }
  if (TeraHeapStressMove) {
    TeraHeapMover mover(_regions, singletons, &shared);
    // H1's live words less what the groups above took.
    collector->stress_move(&mover, stress_budget_words(_regions, collector->h1_live_words()));
    mover.finish();
    movers += mover.objects_moved() > 0 ? 1 : 0;
    objects += mover.objects_moved();
    too_large += mover.too_large();
  }
  shared.dirty_unbacked_fields();
  const size_t words = Atomic::load(&shared.words_moved);
  const bool h2_full = Atomic::load(&shared.h2_full);
  // Sparse labels next, into regions of their own: the groups above may have
  // filled H2, and then these keep their regions.
  const size_t evacuated = TeraHeapEvacuation::evacuate();
  _moved_this_gc = objects > 0 || evacuated > 0;
  if (_moved_this_gc) {
    TeraHeapRoots::sweep_soon();
    _regions->sort_in_use();
    collector->moves_done();
  }

  _bytes_moved += words * HeapWordSize;
  _objects_moved += objects;
  report_h2_full(h2_full, too_large);
  _regions_freed_this_gc = freed;
  const double seconds = (os::javaTimeNanos() - start) / 1e9;
  if (TeraHeapDynamicH1) {
    TeraHeapH1Sizer::add_h2_seconds(seconds);
  }
  log_info(gc, teraheap)("Moved " SIZE_FORMAT " objects (" SIZE_FORMAT "K) to H2 in %.3fms on %u threads%s; freed " SIZE_FORMAT
                         " regions; H2 used " SIZE_FORMAT "M of " SIZE_FORMAT "M in " SIZE_FORMAT " regions",
                         objects, words * HeapWordSize / K,
                         seconds * 1e3, movers, pressure ? " (H1 above the high threshold)" : "",
                         freed, _regions->used_bytes() / M, h2_region().byte_size() / M, _regions->regions_in_use());
  log_debug(gc, teraheap)("H2 metadata in DRAM: cards " SIZE_FORMAT "K committed, " SIZE_FORMAT "K resident; "
                          "object starts " SIZE_FORMAT "K committed",
                          TeraHeapCards::committed_bytes() / K, TeraHeapCards::resident_bytes() / K,
                          TeraHeapObjectStarts::committed_bytes() / K);
}

void TeraHeap::move_in_pause(bool old_roots, bool left_behind) {
  ResourceMark rm;
  const jlong start = os::javaTimeNanos();
  GrowableArray<TeraHeapMoveTask::Group> groups;
  GrowableArray<jlong> offered;
  TeraHeapCollector* const collector = TeraHeapCollector::current();
  TeraHeapRoots::offer_to_pause(old_roots, [&](oop root) { return collector->is_marked(root); },
                                [&](oop root, jlong label) {
    groups.append(TeraHeapMoveTask::Group{root, label, true, false, false, 0, 0});
    offered.append_if_missing(label);
  });
  const bool walk_pending = left_behind && TeraHeapLeftBehind::any_pending();
  if (groups.is_empty() && !walk_pending) {
    return;
  }
  // Which card pages are backed, as a full GC learns before moving: a page
  // given back and stored into since must not be filled clean by a mover.
  TeraHeapCards::refresh(_regions, 0, _regions->in_use_count());
  // Read while the program's static fields still hold H1 addresses.
  const Ticks singletons_start = Ticks::now();
  const TeraHeapSingletons* singletons = new TeraHeapSingletons();
  TeraHeapMoveShared shared;
  TeraHeapMoveTask task(_regions, singletons, &groups, &shared, false, 0, 0);
  const Ticks move_start = Ticks::now();
  log_debug(gc, teraheap)("Singletons read in %.3fms", (move_start - singletons_start).seconds() * 1e3);
  if (groups.is_nonempty()) {
    TeraHeapCollector::current()->workers()->run_task(&task);
    report_moves(&groups, task.workers_moving(), move_start, Ticks::now());
  }
  size_t objects = task.objects_moved();
  size_t too_large = task.too_large();
  // Before the labels this pause leaves in part join them: what this pause
  // left lies outside its collection set.
  if (walk_pending) {
    const jlong pending_start = os::javaTimeNanos();
    const TeraHeapLeftBehind::Moved left = TeraHeapLeftBehind::move_pending(_regions, singletons, &shared);
    objects += left.objects;
    too_large += left.too_large;
    const double ms = (os::javaTimeNanos() - pending_start) / 1e6;
    if (left.objects > 0) {
      log_info(gc, teraheap)("Moved " SIZE_FORMAT " objects (" SIZE_FORMAT "K) that pauses left in H1 in %.3fms on %u threads",
                             left.objects, left.words * HeapWordSize / K, ms, left.movers);
    } else {
      log_debug(gc, teraheap)("Nothing that pauses left in H1 lies in this collection set (%.3fms)", ms);
    }
  }
  int in_part = 0;
  for (int i = 0; i < groups.length(); i++) {
    oop root = groups.at(i).root;
    if (root->is_forwarded()) {
      TeraHeapEvacuation::note_moved_root(root->forwardee());
    }
    if (groups.at(i).outside) {
      TeraHeapLeftBehind::note(groups.at(i).label, _regions);
      in_part++;
    }
  }
  // The moves may have opened regions for pending labels.
  TeraHeapLeftBehind::refresh_pending_regions(_regions);
  TeraHeapRoots::consume_hints_of_moved(&offered);
  TeraHeapRoots::sweep_soon();
  if (Atomic::load(&shared.h2_full)) {
    // Once a marking cycle frees H2's space, a later pause tries again.
    TeraHeapRoots::offer_again_those_in_h1();
  }
  // The pause's card scan, after this, reads the dirtied cards.
  shared.dirty_unbacked_fields();
  const size_t words = Atomic::load(&shared.words_moved);
  if (objects > 0) {
    _regions->sort_in_use();
  }
  _bytes_moved += words * HeapWordSize;
  _objects_moved += objects;
  report_h2_full(Atomic::load(&shared.h2_full), too_large);
  if (TeraHeapDynamicH1) {
    TeraHeapH1Sizer::add_h2_seconds((os::javaTimeNanos() - start) / 1e9);
    TeraHeapH1Sizer::set_h2_data(_regions->used_bytes());
  }
  log_info(gc, teraheap)("Moved " SIZE_FORMAT " objects (" SIZE_FORMAT "K) to H2 in the pause, from %d groups (%d in part), "
                         "in %.3fms on %u threads; H2 used " SIZE_FORMAT "M of " SIZE_FORMAT "M in " SIZE_FORMAT " regions",
                         objects, words * HeapWordSize / K, groups.length(), in_part,
                         (os::javaTimeNanos() - start) / 1e6, task.workers_moving(),
                         _regions->used_bytes() / M, h2_region().byte_size() / M, _regions->regions_in_use());
}

void TeraHeap::report_h2_full(bool h2_full, size_t too_large) {
  const bool storage_full = _regions->take_storage_full();
  if (h2_full || too_large > 0) {
    TeraHeapEvents::h2_full(h2_region().byte_size(), _regions->used_bytes(), storage_full);
  }
  if ((h2_full || too_large > 0) && !_reported_full) {
    _reported_full = true;
    if (storage_full) {
      log_warning(gc, teraheap)("H2's file system is full (%s, " SIZE_FORMAT "M of H2 in use): objects that "
                                "do not fit stay in H1; free space there, or preallocate H2 "
                                "(-XX:+TeraHeapPreallocate) to find this at start", _file->path(),
                                _regions->regions_in_use() * TeraHeapRegionSize / M);
    } else {
      log_warning(gc, teraheap)("H2 is full (" TH_SIZE_FORMAT "): objects that do not fit stay in H1; "
                                "a larger -XX:TeraHeapSize makes room", TH_SIZE_ARGS(h2_region().byte_size()));
    }
  }
}

void TeraHeap::adjust_h2() {
  const jlong start = os::javaTimeNanos();
  TeraHeapCollector::current()->adjust_cards(_regions);
  // Live H1 objects were redirected when the groups moved, roots and H2 just now:
  // compaction will meet no reference to an old copy.
  _moved_this_gc = false;
  TeraHeapCollector::current()->adjust_done();
  if (TeraHeapEvacuation::finish() > 0) {
    _reported_full = false;
  }
  log_debug(gc, teraheap)("Adjusted H2's references into H1 in %.3fms", (os::javaTimeNanos() - start) / 1e6);
  // H2's regions as the GC leaves them: the evacuated ones were given back just now.
  if (_regions_freed_this_gc > 0) {
    TeraHeapEvents::regions_freed(_regions_freed_this_gc, _regions_freed_this_gc * TeraHeapRegionSize,
                                  _regions->regions_in_use(), _regions->used_bytes());
    _regions_freed_this_gc = 0;
  }
  TeraHeapEvents::report_card_faults();
  TeraHeapCardStats::log_and_reset();
  if (TeraHeapDynamicH1) {
    TeraHeapH1Sizer::h2_work_ends(_regions->used_bytes());
  }
}

// Every field of an H2 object must hold a valid reference, and one into H1
// must be on a card the collectors will read.
class TeraHeapVerifyClosure : public BasicOopIterateClosure {
  TeraHeapRegions* _regions;
  oop _holder;
public:
  TeraHeapVerifyClosure(TeraHeapRegions* regions) : _regions(regions), _holder(NULL) {}
  void set_holder(oop o) { _holder = o; }
  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop o = CompressedOops::decode_not_null(heap_oop);
    guarantee(oopDesc::is_oop(o), "TeraHeap: H2 object " PTR_FORMAT " field " PTR_FORMAT " holds a non-object " PTR_FORMAT,
              p2i(_holder), p2i(p), p2i(o));
    // The barrier may have marked the card of the object's header rather than the field's.
    const CardTable::CardValue card = TeraHeapCards::value(p);
    const CardTable::CardValue header_card = TeraHeapCards::value(_holder);
    // A summarized card stands for references into H1 only.
    const bool carded = (card != TeraHeapCards::clean && card != TeraHeapCards::summarized) ||
                        header_card == TeraHeapCards::dirty;
    if (TeraHeap::is_in_h2(o)) {
      const uint from = _regions->index_of(p);
      const uint to = _regions->index_of(o);
      guarantee(_regions->in_use(to), "TeraHeap: H2 field " PTR_FORMAT " refers to " PTR_FORMAT
                " in free region %u", p2i(p), p2i(o), to);
      guarantee(_regions->same_label(from, to) || carded,
                "TeraHeap: H2 field " PTR_FORMAT " refers to another label's " PTR_FORMAT " but its card is clean",
                p2i(p), p2i(o));
      // Liveness follows a clean card's links through the dependency lists
      // only: a link missing there lets the target region be freed under it.
      GrowableArrayCHeap<uint, mtGC>* deps = _regions->dependencies(from);
      guarantee(from == to || carded || (deps != NULL && deps->contains(to)),
                "TeraHeap: H2 field " PTR_FORMAT " (region %u) refers to " PTR_FORMAT " (region %u, same label) "
                "on a clean card, but region %u is not among region %u's dependencies",
                p2i(p), from, p2i(o), to, to, from);
      return;
    }
    if (TeraHeapCollector::current()->is_young(o)) {
      guarantee(card == TeraHeapCards::dirty || card == TeraHeapCards::youngergen ||
                header_card == TeraHeapCards::dirty,
                "TeraHeap: H2 field " PTR_FORMAT " refers to young " PTR_FORMAT " but its card is %d",
                p2i(p), p2i(o), card);
    } else if (card == TeraHeapCards::summarized && header_card != TeraHeapCards::dirty) {
      guarantee(TeraHeapBackwardTargets::contains(_regions->index_of(p), o),
                "TeraHeap: H2 field " PTR_FORMAT " refers to old " PTR_FORMAT " on a summarized card, "
                "but its region does not remember it", p2i(p), p2i(o));
    } else {
      guarantee(card != TeraHeapCards::clean || header_card == TeraHeapCards::dirty,
                "TeraHeap: H2 field " PTR_FORMAT " refers to old " PTR_FORMAT " but its card is clean", p2i(p), p2i(o));
      guarantee(card != TeraHeapCards::oldgen || header_card == TeraHeapCards::dirty ||
                TeraHeapCollector::current()->tracks_old_target(_regions->index_of(p), o),
                "TeraHeap: H2 field " PTR_FORMAT " refers to old " PTR_FORMAT " on an oldgen card, but the "
                "collector may move it in a pause that does not read the card", p2i(p), p2i(o));
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeap::object_iterate(ObjectClosure* cl) {
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const uint i = _regions->in_use_region(k);
    for (HeapWord* p = _regions->bottom(i); p < _regions->top(i); p += cast_to_oop(p)->size()) {
      cl->do_object(cast_to_oop(p));
    }
  }
}

void TeraHeap::verify() {
  TeraHeapCards::refresh(_regions, 0, _regions->in_use_count());
  TeraHeapVerifyClosure cl(_regions);
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const uint i = _regions->in_use_region(k);
    for (HeapWord* p = _regions->bottom(i); p < _regions->top(i); ) {
      oop o = cast_to_oop(p);
      guarantee(oopDesc::is_oop(o), "TeraHeap: no object at " PTR_FORMAT " in H2 region %u", p2i(p), i);
      cl.set_holder(o);
      o->oop_iterate(&cl);
      p += o->size();
    }
  }
}

void TeraHeap::threads_do(ThreadClosure* tc) {
  if (_regions != NULL) {
    _backing->threads_do(tc);
  }
  TeraHeapCardFaults::threads_do(tc);
}

TeraHeapStats TeraHeap::stats() {
  TeraHeapStats s;
  s.capacity_bytes = h2_region().byte_size();
  s.used_bytes = _regions->used_bytes();
  s.regions_in_use = _regions->regions_in_use();
  s.regions_freed = _regions->regions_freed();
  s.bytes_moved = _bytes_moved;
  s.objects_moved = _objects_moved;
  s.tagged_roots = TeraHeapRoots::live_count();
  s.movable_labels = TeraHeapRoots::movable_label_count();
  return s;
}
