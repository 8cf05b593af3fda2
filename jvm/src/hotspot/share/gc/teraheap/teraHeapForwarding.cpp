/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapForwarding.hpp"
#include "oops/oop.inline.hpp"

TeraHeapForwarding::TeraHeapForwarding() : _table(NULL), _capacity(0), _size(0) {
  _capacity = 1024;
  _table = NEW_C_HEAP_ARRAY(Entry, _capacity, mtGC);
  clear();
}

void TeraHeapForwarding::clear() {
  // Keep the table from staying large after one big move.
  if (_capacity > 64 * K && _size < _capacity / 8) {
    FREE_C_HEAP_ARRAY(Entry, _table);
    _capacity = 64 * K;
    _table = NEW_C_HEAP_ARRAY(Entry, _capacity, mtGC);
  }
  memset(_table, 0, _capacity * sizeof(Entry));
  _size = 0;
}

void TeraHeapForwarding::grow() {
  Entry* old = _table;
  const size_t old_capacity = _capacity;
  _capacity *= 2;
  _table = NEW_C_HEAP_ARRAY(Entry, _capacity, mtGC);
  memset(_table, 0, _capacity * sizeof(Entry));
  _size = 0;
  for (size_t i = 0; i < old_capacity; i++) {
    if (old[i].from != NULL) {
      put(cast_to_oop(old[i].from), cast_to_oop(old[i].to));
    }
  }
  FREE_C_HEAP_ARRAY(Entry, old);
}

void TeraHeapForwarding::put(oop from, oop to) {
  if (2 * (_size + 1) > _capacity) {
    grow();
  }
  HeapWord* key = cast_from_oop<HeapWord*>(from);
  size_t i = hash(key) & (_capacity - 1);
  while (_table[i].from != NULL && _table[i].from != key) {
    i = (i + 1) & (_capacity - 1);
  }
  if (_table[i].from == NULL) {
    _size++;
  }
  _table[i].from = key;
  _table[i].to = cast_from_oop<HeapWord*>(to);
}

oop TeraHeapForwarding::get(oop from) const {
  HeapWord* key = cast_from_oop<HeapWord*>(from);
  size_t i = hash(key) & (_capacity - 1);
  while (_table[i].from != NULL) {
    if (_table[i].from == key) {
      return cast_to_oop(_table[i].to);
    }
    i = (i + 1) & (_capacity - 1);
  }
  return NULL;
}
