/*
 * Orphaned labels traced, and sparse ones copied out, at full GCs.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapEvacuateTask.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapEvents.hpp"
#include "gc/teraheap/teraHeapH2Roots.hpp"
#include "gc/teraheap/teraHeapOrphans.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapTrace.inline.hpp"
#include "logging/log.hpp"
#include "memory/resourceArea.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
#include "runtime/globals.hpp"

TeraHeapRegions* TeraHeapEvacuation::_regions = NULL;
uint TeraHeapEvacuation::_full_gcs = 0;
uint TeraHeapEvacuation::_stress_evacuations = 0;
bool* TeraHeapEvacuation::_evacuating = NULL;
GrowableArrayCHeap<uint, mtGC>* TeraHeapEvacuation::_evacuating_list = NULL;
GrowableArrayCHeap<uint, mtGC>* TeraHeapEvacuation::_evacuated_list = NULL;
GrowableArrayCHeap<jlong, mtGC>* TeraHeapEvacuation::_held_labels = NULL;
size_t TeraHeapEvacuation::_objects_evacuated = 0;
size_t TeraHeapEvacuation::_words_evacuated = 0;
uint TeraHeapEvacuation::_labels_evacuated = 0;

void TeraHeapEvacuation::initialize(TeraHeapRegions* regions) {
  if (TeraHeapEvacuationLiveThresholdPercent == 0) {
    return;
  }
  _evacuating = NEW_C_HEAP_ARRAY(bool, regions->count(), mtGC);
  for (uint i = 0; i < regions->count(); i++) {
    _evacuating[i] = false;
  }
  _evacuating_list = new GrowableArrayCHeap<uint, mtGC>(16);
  _evacuated_list = new GrowableArrayCHeap<uint, mtGC>(16);
  _held_labels = new GrowableArrayCHeap<jlong, mtGC>(16);
  TeraHeapH2Roots::initialize(regions);
  TeraHeapOrphans::initialize();
  TeraHeapTrace::initialize(regions);
  _regions = regions;
}

struct TeraHeapLabelRegion {
  jlong label;
  uint  region;
};

static int compare_label_regions(TeraHeapLabelRegion* a, TeraHeapLabelRegion* b) {
  if (a->label != b->label) {
    return a->label < b->label ? -1 : 1;
  }
  return a->region < b->region ? -1 : (a->region > b->region ? 1 : 0);
}

void TeraHeapEvacuation::prepare() {
  if (!enabled()) {
    return;
  }
  _full_gcs++;
  TeraHeapH2Roots::begin_marking();
  if (TeraHeapOrphans::is_empty()) {
    return;
  }
  // The regions of the orphaned labels due for a trace, label by label.
  ResourceMark rm;
  GrowableArray<TeraHeapLabelRegion> due;
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const uint r = _regions->in_use_region(k);
    if (TeraHeapOrphans::is_due(_regions->label(r), _full_gcs)) {
      due.append(TeraHeapLabelRegion{_regions->label(r), r});
    }
  }
  due.sort(compare_label_regions);
  size_t budget = TeraHeapTrace::budget_bytes;
  for (int a = 0, b; a < due.length(); a = b) {
    const jlong label = due.at(a).label;
    size_t used = 0;
    for (b = a; b < due.length() && due.at(b).label == label; b++) {
      used += _regions->used(due.at(b).region).byte_size();
    }
    // Stays due if over the budget: a later full GC has it. An orphaned
    // label larger than the budget is traced alone.
    if (used > budget && (budget < TeraHeapTrace::budget_bytes || !TeraHeapOrphans::is_orphaned(label))) {
      continue;
    }
    budget -= MIN2(used, budget);
    log_debug(gc, teraheap)("Tracing label " JLONG_FORMAT " (%s): " SIZE_FORMAT "K in %d regions", label,
                            TeraHeapOrphans::is_orphaned(label) ? "a root not reached from outside H2" : "written",
                            used / K, b - a);
    TeraHeapOrphans::back_off(label, _full_gcs);
    // Groups of this label moved from H1 in this GC go to fresh regions.
    _regions->close_label(label);
    for (int j = a; j < b; j++) {
      TeraHeapTrace::add(due.at(j).region);
      _regions->clear_written(due.at(j).region);
    }
  }
  if (TeraHeapTrace::length() > 0) {
    log_debug(gc, teraheap)("Tracing %d regions of orphaned labels (" SIZE_FORMAT "M)",
                            TeraHeapTrace::length(), (TeraHeapTrace::budget_bytes - budget) / M);
  }
}

void TeraHeapEvacuation::reached(oop obj) {
  if (!enabled()) {
    return;
  }
  const uint r = _regions->index_of(obj);
  TeraHeapH2Roots::note_reached(r, obj);
  TeraHeapTrace::reached(r, obj);
}

void TeraHeapEvacuation::end_marking_from_roots() {
  if (enabled()) {
    TeraHeapH2Roots::end_marking_from_roots();
  }
}

bool TeraHeapEvacuation::is_traced_region(const void* p) {
  return enabled() && TeraHeapTrace::is_traced_region(p);
}

bool TeraHeapEvacuation::is_reached(oop obj) {
  return TeraHeapTrace::is_reached(obj);
}

void TeraHeapEvacuation::forget_freed_regions() {
  if (!enabled()) {
    return;
  }
  TeraHeapTrace::forget_freed();
  TeraHeapH2Roots::forget_freed();
}

void TeraHeapEvacuation::note_moved_root(oop copy) {
  if (enabled()) {
    TeraHeapH2Roots::add(copy);
  }
}

bool TeraHeapEvacuation::is_evacuating(const void* p) {
  return enabled() && _evacuating[_regions->index_of(p)];
}

void TeraHeapEvacuation::keep_large_object(uint r, bool label_evacuated) {
  if (!cast_to_oop(_regions->bottom(r))->is_typeArray()) {
    // Its fields may name copies: the adjust step reads its cards, and the
    // scans after it learn its links to the label's new regions from them.
    TeraHeapCards::dirty_range(_regions->used(r));
    if (label_evacuated) {
      _regions->forget_dependencies(r);   // they named the freed regions
    }
  }
  _regions->set_has_cards(r, true);
}

size_t TeraHeapEvacuation::evacuate() {
  if (!enabled() || TeraHeapTrace::length() == 0) {
    return 0;
  }
  TeraHeapTrace::log_depth();
  ResourceMark rm;
  GrowableArray<TeraHeapEvacuatedLabel> chosen;
  GrowableArray<size_t> chosen_live;   // words, per chosen label
  size_t free_regions = _regions->count() - _regions->regions_in_use();
  // The stress test's H2 fills up halfway through every other evacuation's
  // copies, so that a label it stops is evacuated again at its next trace.
  const bool stress_stop = TeraHeapStressEvacuationFailure && _stress_evacuations % 2 == 0;
  for (int a = 0, b; a < TeraHeapTrace::length(); a = b) {
    const jlong label = _regions->label(TeraHeapTrace::region_at(a));
    size_t used = 0;
    size_t live = 0;
    size_t dead_large = 0;   // words of unreached objects larger than a region
    for (b = a; b < TeraHeapTrace::length() && _regions->label(TeraHeapTrace::region_at(b)) == label; b++) {
      const uint r = TeraHeapTrace::region_at(b);
      if (_regions->holds_large_object(r)) {
        // Never copied: kept where it is if reached, freed with the label's copied regions if not.
        if (!TeraHeapTrace::is_reached(cast_to_oop(_regions->bottom(r)))) {
          dead_large += _regions->used(r).word_size();
        }
        continue;
      }
      used += _regions->used(r).word_size();
      live += Atomic::load(&TeraHeapTrace::traced(r)->live_words);
    }
    // Each worker may leave a buffer's worth unused per label: room for twice
    // the live data. Freeing what is dead needs none.
    const size_t needed = live == 0 ? 0 : 2 * (live / _regions->region_words()) + 2;
    // The stress mode evacuates every traced label, so that any program runs evacuations.
    const bool sparse = live * 100 < TeraHeapEvacuationLiveThresholdPercent * (used + dead_large) || TeraHeapStressMove;
    // A group of the label moving from H1 in this GC does not keep it: it went
    // to fresh regions (prepare closed the label), and its references to the
    // label's traced objects are on dirty cards, adjusted to their copies.
    log_debug(gc, teraheap)("Label " JLONG_FORMAT ": " SIZE_FORMAT "K live in " SIZE_FORMAT "K of %d regions"
                            " (" SIZE_FORMAT "K of unreached large objects)%s",
                            label, live * HeapWordSize / K, used * HeapWordSize / K, b - a,
                            dead_large * HeapWordSize / K,
                            !sparse ? ", dense: kept" :
                            (free_regions < needed ? ", no free regions to copy into: kept" : ", evacuated"));
    if (sparse && free_regions >= needed) {
      free_regions -= needed;
      chosen.append(TeraHeapEvacuatedLabel{label, a, b, true, stress_stop ? live / 2 : SIZE_MAX, 0});
      chosen_live.append(live);
    }
  }
  size_t objects = 0;
  if (chosen.is_nonempty()) {
    if (TeraHeapStressEvacuationFailure) {
      _stress_evacuations++;
    }
    GrowableArray<TeraHeapEvacuatedRegion> regions_to_copy;
    for (int n = 0; n < chosen.length(); n++) {
      for (int k = chosen.at(n).a; k < chosen.at(n).b; k++) {
        const uint r = TeraHeapTrace::region_at(k);
        if (_regions->holds_large_object(r)) {
          continue;
        }
        _evacuating[r] = true;
        _evacuating_list->append(r);
        regions_to_copy.append(TeraHeapEvacuatedRegion{k, n});
      }
    }
    TeraHeapEvacuateTask task(_regions, &chosen, &regions_to_copy);
    TeraHeapCollector::current()->workers()->run_task(&task);
    for (int n = 0; n < chosen.length(); n++) {
      const TeraHeapEvacuatedLabel& l = chosen.at(n);
      size_t freed = 0;
      for (int k = l.a; k < l.b; k++) {
        const uint r = TeraHeapTrace::region_at(k);
        if (_regions->holds_large_object(r) && TeraHeapTrace::is_reached(cast_to_oop(_regions->bottom(r)))) {
          keep_large_object(r, l.complete);
          continue;
        }
        if (l.complete) {
          _regions->set_has_cards(r, false);   // nothing live is left to adjust
          _evacuated_list->append(r);
          freed++;
        } else {
          _regions->set_has_cards(r, true);
        }
      }
      if (!l.complete) {
        log_info(gc, teraheap)("H2 had no room to evacuate label " JLONG_FORMAT ": its regions stay", l.label);
      } else {
        // Other groups of the label may be dropped next: trace it again soon.
        TeraHeapOrphans::trace_soon(l.label, _full_gcs);
        TeraHeapEvents::evacuated(l.label, chosen_live.at(n) * HeapWordSize, freed);
      }
      _labels_evacuated += l.complete ? 1 : 0;
    }
    _objects_evacuated += task.objects();
    _words_evacuated += task.words();
    objects = task.objects();
  }
  // The traced regions that stay (their label was kept, or H2 had no room to
  // finish its copy): their unreached objects are garbage.
  size_t filled = 0;
  for (int k = 0; k < TeraHeapTrace::length(); k++) {
    const uint r = TeraHeapTrace::region_at(k);
    if (!_evacuated_list->contains(r)) {
      filled += TeraHeapTrace::fill_unreached(r);
    }
  }
  if (filled > 0) {
    log_debug(gc, teraheap)("Dead objects of traced regions that stay, on cards the collectors read: " SIZE_FORMAT
                            " made fillers", filled);
  }
  return objects;
}

size_t TeraHeapEvacuation::finish() {
  if (!enabled()) {
    return 0;
  }
  // Roots in evacuated regions follow their copies.
  for (int k = 0; k < _evacuating_list->length(); k++) {
    TeraHeapH2Roots::follow_copies(_evacuating_list->at(k));
  }
  size_t freed = 0;
  if (_evacuated_list->is_nonempty()) {
    for (int k = 0; k < _evacuated_list->length(); k++) {
      _regions->set_dead(_evacuated_list->at(k));
    }
    freed = _regions->free_dead_regions();
    log_info(gc, teraheap)("Evacuated " SIZE_FORMAT " objects (" SIZE_FORMAT "K) of %u sparse labels; freed "
                           SIZE_FORMAT " regions", _objects_evacuated, _words_evacuated * HeapWordSize / K,
                           _labels_evacuated, freed);
  }
  TeraHeapH2Roots::forget_freed();
  // A trace is exact: a root in a traced region that stays, which marking did
  // not reach, is garbage (and was made a filler if a collector reads it).
  // Forgotten, it no longer makes its label look dropped at every full GC.
  for (int k = 0; k < TeraHeapTrace::length(); k++) {
    TeraHeapH2Roots::forget_dead(TeraHeapTrace::region_at(k), TeraHeapTrace::is_reached);
  }
  _objects_evacuated = _words_evacuated = 0;
  _labels_evacuated = 0;
  for (int k = 0; k < _evacuating_list->length(); k++) {
    _evacuating[_evacuating_list->at(k)] = false;
  }
  _evacuating_list->clear();
  _evacuated_list->clear();
  TeraHeapTrace::clear();

  // A label is held when the marking from roots reached every one of its
  // tagged roots in H2. The others are orphaned, traced when due: a label
  // with no root left, one of whose groups the program dropped (the label
  // may be reused for new groups: its regions link the old groups to the new
  // through the region they share), or whose roots were reached only through
  // H2 (possibly through their own group's cards). A held label the program
  // wrote into is traced when due too: it may have dropped part of a group.
  TeraHeapH2Roots::held_labels(_held_labels);
  TeraHeapOrphans::update(_regions, _held_labels, _full_gcs);
  return freed;
}
