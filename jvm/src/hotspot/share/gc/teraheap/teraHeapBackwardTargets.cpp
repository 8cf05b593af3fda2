/*
 * The H1 objects that each region's summarized cards refer to.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "logging/log.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/mutexLocker.hpp"

static const uint initial_capacity = 16;

TeraHeapBackwardTargets::Set* TeraHeapBackwardTargets::_sets = NULL;
Mutex* TeraHeapBackwardTargets::_lock = NULL;
GrowableArrayCHeap<uint, mtGC>* TeraHeapBackwardTargets::_listed = NULL;
volatile bool TeraHeapBackwardTargets::_skipping = false;

void TeraHeapBackwardTargets::initialize(uint regions) {
  _sets = NEW_C_HEAP_ARRAY(Set, regions, mtGC);
  _lock = new Mutex(Mutex::leaf, "TeraHeapBackwardTargets_lock", true, Mutex::_safepoint_check_never);
  _listed = new GrowableArrayCHeap<uint, mtGC>(16);
  for (uint i = 0; i < regions; i++) {
    _sets[i] = Set{NULL, 0, 0, false};
  }
}

// The slot that holds `target`, or the free slot where it would go.
uint TeraHeapBackwardTargets::slot_of(const Set* s, oop target) {
  const uint mask = s->capacity - 1;
  uint i = (uint)(((uintptr_t)cast_from_oop<HeapWord*>(target) >> LogHeapWordSize) * 0x9E3779B1u) & mask;
  while (s->slots[i] != NULL && s->slots[i] != target) {
    i = (i + 1) & mask;
  }
  return i;
}

void TeraHeapBackwardTargets::grow(Set* s) {
  oop* const old = s->slots;
  const uint old_capacity = s->capacity;
  s->capacity = old_capacity == 0 ? initial_capacity : old_capacity * 2;
  s->slots = NEW_C_HEAP_ARRAY(oop, s->capacity, mtGC);
  for (uint i = 0; i < s->capacity; i++) {
    s->slots[i] = NULL;
  }
  for (uint i = 0; i < old_capacity; i++) {
    if (old[i] != NULL) {
      s->slots[slot_of(s, old[i])] = old[i];
    }
  }
  FREE_C_HEAP_ARRAY(oop, old);
}

bool TeraHeapBackwardTargets::add(uint region, oop target) {
  Set* s = &_sets[region];
  if (s->capacity > 0) {
    const uint i = slot_of(s, target);
    if (s->slots[i] == target) {
      return true;
    }
  }
  if (s->count == max_targets) {
    return false;
  }
  if (2 * (s->count + 1) > s->capacity) {
    grow(s);
  }
  s->slots[slot_of(s, target)] = target;
  s->count++;
  return true;
}

bool TeraHeapBackwardTargets::contains(uint region, oop target) {
  const Set* s = &_sets[region];
  return s->capacity > 0 && s->slots[slot_of(s, target)] == target;
}

void TeraHeapBackwardTargets::list_skipped(uint region) {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _listed->append(region);
}

const GrowableArrayCHeap<uint, mtGC>& TeraHeapBackwardTargets::confirm() {
  // From here on no region lists itself: the list is only read, by the caller.
  _skipping = false;
  TeraHeapCollector* const collector = TeraHeapCollector::current();
  int stale = 0;
  for (int k = 0; k < _listed->length(); k++) {
    const uint r = _listed->at(k);
    const Set* s = &_sets[r];
    bool all_marked = true;
    for (uint i = 0; i < s->capacity && all_marked; i++) {
      all_marked = s->slots[i] == NULL || collector->is_marked(s->slots[i]);
    }
    if (!all_marked) {
      set_stale(r);
      _listed->at_put(stale++, r);
    }
  }
  if (_listed->length() > 0) {
    log_debug(gc, teraheap)("Summaries used by marking: %d regions, %d of them naming an unmarked object (their summarized cards read)",
                            _listed->length(), stale);
  }
  _listed->trunc_to(stale);
  return *_listed;
}

void TeraHeapBackwardTargets::confirmed() {
  _listed->clear();
}

void TeraHeapBackwardTargets::clear(uint region) {
  Set* s = &_sets[region];
  FREE_C_HEAP_ARRAY(oop, s->slots);
  *s = Set{NULL, 0, 0, false};
}
