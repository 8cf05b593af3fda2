/*
 * Which H2 regions a G1 marking cycle reaches, and freeing the others at Remark.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapG1Marking.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "runtime/atomic.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "runtime/safepoint.hpp"
#include "utilities/debug.hpp"

volatile int TeraHeapG1Marking::_phase = TeraHeapG1Marking::idle;
TeraHeapRegions* TeraHeapG1Marking::_regions = NULL;
TeraHeapG1Marking::RegionList** TeraHeapG1Marking::_links = NULL;
TeraHeapG1Marking::RegionList* TeraHeapG1Marking::_linked = NULL;
Mutex* TeraHeapG1Marking::_links_lock = NULL;

void TeraHeapG1Marking::forget_links() {
  for (int k = 0; k < _linked->length(); k++) {
    _links[_linked->at(k)]->clear();
  }
  _linked->clear();
}

// Makes live what the regions on `stack` (live already) lead to, and what
// that leads to, until the stack is empty.
void TeraHeapG1Marking::lead_on(RegionList* stack) {
  while (stack->is_nonempty()) {
    const uint r = stack->pop();
    RegionList* const next[] = { _regions->dependencies(r), _links[r] };
    for (uint n = 0; n < ARRAY_SIZE(next); n++) {
      for (int k = 0; next[n] != NULL && k < next[n]->length(); k++) {
        // Both lists hold start regions.
        if (_regions->make_live(next[n]->at(k))) {
          stack->push(next[n]->at(k));
        }
      }
    }
  }
}

void TeraHeapG1Marking::initialize(TeraHeapRegions* regions) {
  _regions = regions;
  _links = NEW_C_HEAP_ARRAY(RegionList*, regions->count(), mtGC);
  for (uint i = 0; i < regions->count(); i++) {
    _links[i] = NULL;
  }
  _linked = new RegionList(16);
  _links_lock = new Mutex(Mutex::leaf, "TeraHeapG1Marking_lock", true, Mutex::_safepoint_check_never);
}

void TeraHeapG1Marking::begin() {
  assert(SafepointSynchronize::is_at_safepoint(), "in the concurrent start pause");
  _regions->clear_live();
  forget_links();
  Atomic::release_store(&_phase, (int)marking);
}

void TeraHeapG1Marking::add_link(uint from, uint to) {
  MutexLocker ml(_links_lock, Mutex::_no_safepoint_check_flag);
  if (_links[from] == NULL) {
    _links[from] = new RegionList(4);
  }
  if (_links[from]->is_empty()) {
    _linked->append(from);
  }
  _links[from]->append_if_missing(to);
}

void TeraHeapG1Marking::reached(oop obj) {
  const int phase = Atomic::load_acquire(&_phase);
  if (phase == idle) {
    return;
  }
  const uint r = _regions->index_of(obj);
  if (_regions->make_live(r) && phase == closing) {
    RegionList stack;
    stack.push(r);
    lead_on(&stack);
  }
}

bool TeraHeapG1Marking::needs_marking(const void* entry) {
  return Atomic::load_acquire(&_phase) != idle && !_regions->is_live(entry);
}

bool TeraHeapG1Marking::is_alive(oop obj) {
  return Atomic::load_acquire(&_phase) == idle || _regions->is_live(obj);
}

void TeraHeapG1Marking::marking_complete() {
  assert(SafepointSynchronize::is_at_safepoint(), "at Remark");
  assert(_phase == marking, "a cycle is under way");
  RegionList stack;
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const uint r = _regions->in_use_region(k);
    if (_regions->is_live(_regions->bottom(r))) {
      stack.push(r);
    }
  }
  lead_on(&stack);
  Atomic::release_store(&_phase, (int)closing);
}

void TeraHeapG1Marking::marking_done() {
  assert(SafepointSynchronize::is_at_safepoint(), "at Remark");
  assert(_phase == closing, "marking is complete");
  forget_links();
  Atomic::release_store(&_phase, (int)idle);
}

void TeraHeapG1Marking::abort() {
  forget_links();
  Atomic::release_store(&_phase, (int)idle);
}
