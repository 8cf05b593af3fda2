/*
 * Where moved objects' old copies went, until references are adjusted.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapForwarding.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "utilities/growableArray.hpp"

GrowableArrayCHeap<TeraHeapForwarding::Move, mtGC>* TeraHeapForwarding::_kept = NULL;
Mutex* TeraHeapForwarding::_kept_lock = NULL;

void TeraHeapForwarding::keep(oop old_copy, oop copy) {
  MutexLocker ml(_kept_lock, Mutex::_no_safepoint_check_flag);
  _kept->append(Move{cast_from_oop<HeapWord*>(old_copy), copy});
}

int TeraHeapForwarding::compare_moves(Move* a, Move* b) {
  return a->from < b->from ? -1 : (a->from > b->from ? 1 : 0);
}

int TeraHeapForwarding::compare_move_from(HeapWord* const& addr, const Move& move) {
  return addr < move.from ? -1 : (addr > move.from ? 1 : 0);
}

oop TeraHeapForwarding::find_kept(HeapWord* addr) {
  if (_kept == NULL) {
    return NULL;
  }
  bool found = false;
  const int at = _kept->find_sorted<HeapWord*, compare_move_from>(addr, found);
  return found ? _kept->at(at).to : NULL;
}

void TeraHeapForwarding::initialize() {
  _kept = new GrowableArrayCHeap<Move, mtGC>(64);
  _kept_lock = new Mutex(Mutex::leaf, "TeraHeapForwarding_lock", true, Mutex::_safepoint_check_never);
}

void TeraHeapForwarding::moves_done() {
  if (_kept != NULL) {
    _kept->sort(compare_moves);
  }
}

void TeraHeapForwarding::clear() {
  if (_kept != NULL) {
    _kept->clear();
  }
}
