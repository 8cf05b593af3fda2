/*
 * H2's region table and allocator.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "logging/log.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "utilities/align.hpp"

TeraHeapRegions::TeraHeapRegions(TeraHeapRegionBacking* backing) :
    _count(TeraHeapAddressSpace::region_count()),
    _backing(backing),
    _claim_lock(new Mutex(Mutex::leaf, "TeraHeapRegions_claim_lock", true, Mutex::_safepoint_check_never)),
    _metadata_lock(new Mutex(Mutex::leaf, "TeraHeapRegions_metadata_lock", true, Mutex::_safepoint_check_never)),
    _pending_lock(new Mutex(Mutex::leaf, "TeraHeapRegions_lock", true, Mutex::_safepoint_check_never)),
    _pending(16),
    _pending_count(0),
    _open_labels(16),
    _open_regions(16),
    _free_hint(0),
    _regions_freed(0),
    _regions_in_use(0),
    _storage_full(false),
    _in_use(16) {
  _top = NEW_C_HEAP_ARRAY(HeapWord*, _count, mtGC);
  _label = NEW_C_HEAP_ARRAY(jlong, _count, mtGC);
  _start = NEW_C_HEAP_ARRAY(uint, _count, mtGC);
  _live = NEW_C_HEAP_ARRAY(volatile bool, _count, mtGC);
  _has_cards = NEW_C_HEAP_ARRAY(bool, _count, mtGC);
  _written = NEW_C_HEAP_ARRAY(bool, _count, mtGC);
  _deps = NEW_C_HEAP_ARRAY(GrowableArrayCHeap<uint COMMA mtGC>*, _count, mtGC);
  _klasses = NEW_C_HEAP_ARRAY(GrowableArrayCHeap<Klass* COMMA mtGC>*, _count, mtGC);
  for (uint i = 0; i < _count; i++) {
    _top[i] = NULL;
    _label[i] = 0;
    _start[i] = i;
    _live[i] = false;
    _has_cards[i] = false;
    _written[i] = false;
    _deps[i] = NULL;
    _klasses[i] = NULL;
  }
}

bool TeraHeapRegions::open(uint i, jlong label, uint start) {
  if (!_backing->bring_up(i)) {
    _storage_full = true;
    return false;
  }
  _regions_in_use++;
  _top[i] = bottom(i);
  _label[i] = label;
  _start[i] = start;
  _live[i] = true;   // filled during this GC: live until the next one decides
  _has_cards[i] = true;
  return true;
}

bool TeraHeapRegions::claim_free_run(uint n, uint* first) {
  for (uint i = (n == 1 ? _free_hint : 0); i + n <= _count; i++) {
    uint j = 0;
    while (j < n && is_free(i + j)) {
      j++;
    }
    if (j == n) {
      *first = i;
      if (n == 1) {
        _free_hint = i + 1;
      }
      return true;
    }
    i += j;   // skip past the region in use
  }
  return false;
}

uint TeraHeapRegions::open_region_of(jlong label) const {
  const int at = _open_labels.find(label);
  return at < 0 ? UINT_MAX : _open_regions.at(at);
}

void TeraHeapRegions::set_open_region(jlong label, uint region) {
  const int at = _open_labels.find(label);
  if (at < 0) {
    _open_labels.append(label);
    _open_regions.append(region);
  } else {
    _open_regions.at_put(at, region);
  }
}

void TeraHeapRegions::close_label(jlong label) {
  MutexLocker ml(_claim_lock, Mutex::_no_safepoint_check_flag);
  const int at = _open_labels.find(label);
  if (at >= 0) {
    _open_labels.remove_at(at);
    _open_regions.remove_at(at);
  }
}

// Contiguous regions of its own for an object larger than a region; the last
// one's tail stays unused.
HeapWord* TeraHeapRegions::claim_run(jlong label, size_t words) {
  const uint n = (uint)((words + region_words() - 1) / region_words());
  uint first;
  if (!claim_free_run(n, &first)) {
    return NULL;
  }
  for (uint i = first; i < first + n; i++) {
    if (!open(i, label, first)) {
      for (uint j = first; j < i; j++) {
        _top[j] = NULL;
        _start[j] = j;
        _regions_in_use--;
      }
      if (i > first) {
        _backing->take_down(first, i, this);
      }
      return NULL;
    }
    _top[i] = bottom(i + 1);
  }
  _in_use.append(first);
  // The start region's top stands for the whole object when walking it.
  _top[first] = bottom(first) + words;
  return bottom(first);
}

HeapWord* TeraHeapRegions::claim(jlong label, size_t min_words, size_t want_words, size_t* got) {
  assert(min_words <= want_words, "a range");
  MutexLocker ml(_claim_lock, Mutex::_no_safepoint_check_flag);
  if (min_words > region_words()) {
    *got = min_words;
    return claim_run(label, min_words);
  }
  uint r = open_region_of(label);
  if (r == UINT_MAX || is_free(r) || _label[r] != label || _start[r] != r ||
      pointer_delta(bottom(r) + region_words(), _top[r]) < min_words) {
    // No free region: H2 is full for this label. Another label's open region
    // may still have room, but objects put there would live and die with that
    // label's region, and keep their H1 referents alive with it.
    if (!claim_free_run(1, &r) || !open(r, label, r)) {
      return NULL;
    }
    _in_use.append(r);
    set_open_region(label, r);
  }
  *got = MIN2(want_words, pointer_delta(bottom(r) + region_words(), _top[r]));
  HeapWord* result = _top[r];
  _top[r] += *got;
  _has_cards[r] = true;
  return result;
}

void TeraHeapRegions::free_run(uint first, uint end) {
  for (uint j = first; j < end; j++) {
    _top[j] = NULL;
    _start[j] = j;
    _written[j] = false;
    if (_deps[j] != NULL) { delete _deps[j]; _deps[j] = NULL; }
    if (_klasses[j] != NULL) { delete _klasses[j]; _klasses[j] = NULL; }
  }
  _backing->take_down(first, end, this);
  if (first < _free_hint) {
    _free_hint = first;
  }
}

bool TeraHeapRegions::retract(HeapWord* p, size_t words) {
  MutexLocker ml(_claim_lock, Mutex::_no_safepoint_check_flag);
  assert(words <= region_words(), "within a region");
  const uint r = index_of(p);
  if (_top[r] != p + words) {
    return false;
  }
  _top[r] = p;
  return true;
}

void TeraHeapRegions::record_klass(uint region, Klass* k) {
  MutexLocker ml(_metadata_lock, Mutex::_no_safepoint_check_flag);
  if (_klasses[region] == NULL) {
    _klasses[region] = new GrowableArrayCHeap<Klass*, mtGC>(4);
  }
  _klasses[region]->append_if_missing(k);
}

void TeraHeapRegions::clear_live() {
  for (int k = 0; k < _in_use.length(); k++) {
    _live[_in_use.at(k)] = false;
  }
  _pending.clear();
  _pending_count = 0;
}

bool TeraHeapRegions::make_live(uint i) {
  i = _start[i];
  return !Atomic::load(&_live[i]) && Atomic::cmpxchg(&_live[i], false, true) == false;
}

void TeraHeapRegions::mark_live(uint i) {
  if (make_live(i)) {
    queue_pending(i);
  }
}

void TeraHeapRegions::queue_pending(uint i) {
  i = _start[i];
  MutexLocker ml(_pending_lock, Mutex::_no_safepoint_check_flag);
  _pending.push(i);
  Atomic::release_store(&_pending_count, (uint)_pending.length());
}

uint TeraHeapRegions::claim_pending() {
  if (!has_pending()) {
    return UINT_MAX;
  }
  MutexLocker ml(_pending_lock, Mutex::_no_safepoint_check_flag);
  if (_pending.is_empty()) {
    return UINT_MAX;
  }
  const uint r = _pending.pop();
  Atomic::release_store(&_pending_count, (uint)_pending.length());
  return r;
}

bool TeraHeapRegions::add_dependency(uint from, uint to) {
  from = _start[from];
  to = _start[to];
  if (from == to) {
    return true;
  }
  if (!same_label(from, to)) {
    return false;
  }
  if (_deps[from] == NULL) {
    _deps[from] = new GrowableArrayCHeap<uint, mtGC>(4);
  }
  _deps[from]->append_if_missing(to);
  return true;
}

bool TeraHeapRegions::add_dependency_locked(uint from, uint to) {
  MutexLocker ml(_metadata_lock, Mutex::_no_safepoint_check_flag);
  return add_dependency(from, to);
}

void TeraHeapRegions::forget_dependencies(uint i) {
  if (_deps[i] != NULL) {
    _deps[i]->clear();
  }
}

size_t TeraHeapRegions::free_dead_regions() {
  size_t freed = 0;
  int kept = 0;
  for (int k = 0; k < _in_use.length(); k++) {
    const uint i = _in_use.at(k);
    if (_live[i]) {
      _in_use.at_put(kept++, i);
      continue;
    }
    // A dead start region frees itself and the rest of its object's regions.
    uint end = i + 1;
    while (end < _count && !is_free(end) && _start[end] == i) {
      end++;
    }
    free_run(i, end);
    freed += end - i;
  }
  _in_use.trunc_to(kept);
  // Forget open regions that were freed.
  for (int k = _open_labels.length() - 1; k >= 0; k--) {
    if (is_free(_open_regions.at(k))) {
      _open_labels.remove_at(k);
      _open_regions.remove_at(k);
    }
  }
  _regions_in_use -= freed;
  _regions_freed += freed;
  return freed;
}

static int compare_regions(uint* a, uint* b) {
  return *a < *b ? -1 : (*a > *b ? 1 : 0);
}

void TeraHeapRegions::sort_in_use() {
  _in_use.sort(compare_regions);
}

bool TeraHeapRegions::any_in_use(MemRegion mr) const {
  const uint last = raw_index_of(mr.last());
  for (uint i = raw_index_of(mr.start()); i <= last; i++) {
    if (!is_free(i)) {
      return true;
    }
  }
  return false;
}

size_t TeraHeapRegions::used_bytes() const {
  size_t used = 0;
  for (int k = 0; k < _in_use.length(); k++) {
    const uint i = _in_use.at(k);
    used += pointer_delta(_top[i], bottom(i), 1);
  }
  return used;
}
