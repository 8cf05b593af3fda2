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
volatile bool* TeraHeapG1Marking::_queued = NULL;
TeraHeapG1Marking::PartReads* TeraHeapG1Marking::_part_reads = NULL;
volatile int TeraHeapG1Marking::_part_read_count = 0;
Mutex* TeraHeapG1Marking::_part_reads_lock = NULL;

void TeraHeapG1Marking::initialize(TeraHeapRegions* regions) {
  _regions = regions;
  _queued = NEW_C_HEAP_ARRAY(volatile bool, regions->count(), mtGC);
  for (uint i = 0; i < regions->count(); i++) {
    _queued[i] = false;
  }
  _part_reads = new PartReads(4);
  _part_reads_lock = new Mutex(Mutex::leaf, "TeraHeapG1Marking_lock", true, Mutex::_safepoint_check_never);
}

void TeraHeapG1Marking::begin() {
  assert(SafepointSynchronize::is_at_safepoint(), "in the concurrent start pause");
  assert(_part_reads->is_empty(), "no read left from the last cycle");
  _regions->clear_live();
  // Free regions too: one a pause opens during the cycle is read once.
  for (uint i = 0; i < _regions->count(); i++) {
    _queued[i] = false;
  }
  Atomic::release_store(&_phase, (int)marking);
}

void TeraHeapG1Marking::reached(oop obj) {
  if (Atomic::load_acquire(&_phase) == idle) {
    return;
  }
  reach(_regions->index_of(obj));
}

void TeraHeapG1Marking::reach(uint region) {
  assert(_phase != idle, "a cycle is under way");
  _regions->make_live(region);
  if (!Atomic::load(&_queued[region]) && !Atomic::cmpxchg(&_queued[region], false, true)) {
    _regions->queue_pending(region);
  }
}

bool TeraHeapG1Marking::has_regions_to_read() {
  return Atomic::load_acquire(&_phase) != idle && (_regions->has_pending() || Atomic::load(&_part_read_count) != 0);
}

bool TeraHeapG1Marking::claim_region(uint* region, HeapWord** from) {
  if (Atomic::load_acquire(&_phase) == idle) {
    return false;
  }
  if (Atomic::load(&_part_read_count) != 0) {
    MutexLocker ml(_part_reads_lock, Mutex::_no_safepoint_check_flag);
    if (_part_reads->is_nonempty()) {
      const PartRead read = _part_reads->pop();
      Atomic::store(&_part_read_count, _part_reads->length());
      *region = read.region;
      *from = read.from;
      return true;
    }
  }
  const uint r = _regions->claim_pending();
  if (r == UINT_MAX) {
    return false;
  }
  *region = r;
  *from = _regions->bottom(r);
  return true;
}

void TeraHeapG1Marking::put_back(uint region, HeapWord* from) {
  MutexLocker ml(_part_reads_lock, Mutex::_no_safepoint_check_flag);
  const PartRead read = { region, from };
  _part_reads->push(read);
  Atomic::store(&_part_read_count, _part_reads->length());
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
  guarantee(!has_regions_to_read(), "marking terminated with H2 regions to read");
  Atomic::release_store(&_phase, (int)closing);
}

void TeraHeapG1Marking::marking_done() {
  assert(SafepointSynchronize::is_at_safepoint(), "at Remark");
  assert(_phase == closing, "marking is complete");
  guarantee(!has_regions_to_read(), "reference processing left H2 regions to read");
#ifdef ASSERT
  // Links inside a label stand for references on clean cards.
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const uint r = _regions->in_use_region(k);
    GrowableArrayCHeap<uint, mtGC>* const deps = _regions->dependencies(r);
    for (int d = 0; _regions->is_live(_regions->bottom(r)) && deps != NULL && d < deps->length(); d++) {
      assert(_regions->is_live(_regions->bottom(deps->at(d))), "H2 region %u is live, its dependency %u is not",
             r, deps->at(d));
    }
  }
#endif
  Atomic::release_store(&_phase, (int)idle);
}

void TeraHeapG1Marking::abort() {
  Atomic::release_store(&_phase, (int)idle);
  _part_reads->clear();
  Atomic::store(&_part_read_count, 0);
  _regions->clear_live();
}
