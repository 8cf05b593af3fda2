/*
 * Where moved objects' old copies went, until references are adjusted.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/parMarkBitMap.inline.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "gc/teraheap/teraHeapForwarding.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "utilities/growableArray.hpp"

GrowableArrayCHeap<TeraHeapForwarding::Move, mtGC>* TeraHeapForwarding::_exposed = NULL;
Mutex* TeraHeapForwarding::_exposed_lock = NULL;

// The filler starts at most this many words before a region boundary
// (dense_prefix_end - 3 in the collector's case d, or min_fill_size), or one
// word before it and then covers the region's first word too (case b).
static bool is_exposed(HeapWord* addr) {
  const size_t offset = PSParallelCompact::summary_data().region_offset(addr);
  const size_t reach = MAX2((size_t)3, CollectedHeap::min_fill_size());
  return offset == 0 || offset >= ParallelCompactData::RegionSize - reach;
}

void TeraHeapForwarding::record(oop old_copy, oop copy) {
  HeapWord* const from = cast_from_oop<HeapWord*>(old_copy);
  if (!is_exposed(from)) {
    return;
  }
  MutexLocker ml(_exposed_lock, Mutex::_no_safepoint_check_flag);
  _exposed->append(Move{from, copy});
}

int TeraHeapForwarding::compare_moves(Move* a, Move* b) {
  return a->from < b->from ? -1 : (a->from > b->from ? 1 : 0);
}

int TeraHeapForwarding::compare_move_from(HeapWord* const& addr, const Move& move) {
  return addr < move.from ? -1 : (addr > move.from ? 1 : 0);
}

oop TeraHeapForwarding::find_exposed(HeapWord* addr) {
  if (_exposed == NULL) {
    return NULL;
  }
  bool found = false;
  const int at = _exposed->find_sorted<HeapWord*, compare_move_from>(addr, found);
  return found ? _exposed->at(at).to : NULL;
}

oop TeraHeapForwarding::forwardee_or_null(oop obj) {
  HeapWord* const addr = cast_from_oop<HeapWord*>(obj);
  if (is_exposed(addr)) {
    oop to = find_exposed(addr);
    if (to != NULL) {
      return to;
    }
  }
  if (PSParallelCompact::mark_bitmap()->is_marked(obj)) {
    return NULL;
  }
  // Unmarked: an old copy, or a dead object in a place that still holds dead
  // references (an nmethod being unloaded), left as the stock collector would.
  return obj->is_forwarded() ? obj->forwardee() : obj;
}

void TeraHeapForwarding::initialize() {
  _exposed = new GrowableArrayCHeap<Move, mtGC>(64);
  _exposed_lock = new Mutex(Mutex::leaf, "TeraHeapForwarding_lock", true, Mutex::_safepoint_check_never);
}

void TeraHeapForwarding::moves_done() {
  if (_exposed != NULL) {
    _exposed->sort(compare_moves);
  }
}

void TeraHeapForwarding::clear() {
  if (_exposed != NULL) {
    _exposed->clear();
  }
}
