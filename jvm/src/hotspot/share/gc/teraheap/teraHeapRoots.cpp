/*
 * Tagged roots and move hints.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapRoots.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/jniHandles.inline.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "utilities/growableArray.hpp"

Mutex* TeraHeapRoots::_lock = NULL;
GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>* TeraHeapRoots::_roots = NULL;
GrowableArrayCHeap<jlong, mtGC>* TeraHeapRoots::_movable = NULL;
int TeraHeapRoots::_sweep_at = 64;

void TeraHeapRoots::initialize() {
  _lock = new Mutex(Mutex::leaf, "TeraHeapRoots_lock", true, Mutex::_safepoint_check_never);
  _roots = new GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>(64);
  _movable = new GrowableArrayCHeap<jlong, mtGC>(16);
}

// Drops entries whose root was collected or already moved to H2; returns the handles to destroy
// once the lock is released.
static int compare_labels(const jlong& a, const jlong& b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

static int sort_labels(jlong* a, jlong* b) {
  return compare_labels(*a, *b);
}

static bool contains_label(GrowableArrayCHeap<jlong, mtGC>* sorted, jlong label) {
  bool found = false;
  sorted->find_sorted<jlong, compare_labels>(label, found);
  return found;
}

void TeraHeapRoots::sweep(GrowableArrayCHeap<jweak, mtGC>* dead) {
  GrowableArrayCHeap<jlong, mtGC> died;       // labels of roots the program dropped
  GrowableArrayCHeap<jlong, mtGC> tagged;     // labels of roots still in H1
  int kept = 0;
  for (int i = 0; i < _roots->length(); i++) {
    TeraHeapTaggedRoot e = _roots->at(i);
    // No keep-alive: under G1, resolving every root while marking would
    // keep each dead one alive through the cycle, and its entry with it.
    oop root = resolve_no_keepalive(e.root);
    if (root == NULL || TeraHeapAddressSpace::contains(root)) {
      dead->append(e.root);
      if (root == NULL && _movable->is_nonempty()) {
        died.append(e.label);
      }
    } else {
      _roots->at_put(kept++, e);
      if (_movable->is_nonempty()) {
        tagged.append(e.label);
      }
    }
  }
  _roots->trunc_to(kept);
  // A hint whose roots all died has nothing left to move: drop it (a full
  // GC consumes every hint; G1's pauses consume only those of roots they
  // moved, and would search the others at every pause).
  if (died.is_nonempty()) {
    died.sort(sort_labels);
    tagged.sort(sort_labels);
    for (int i = _movable->length() - 1; i >= 0; i--) {
      const jlong label = _movable->at(i);
      if (contains_label(&died, label) && !contains_label(&tagged, label)) {
        _movable->remove_at(i);
      }
    }
  }
  _sweep_at = MAX2(64, 2 * kept);
  // A table that held millions of roots at a peak (a superstep's messages)
  // keeps no room for them once they have died or moved.
  if (_roots->max_length() > 2 * _sweep_at) {
    GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>* smaller = new GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>(_sweep_at);
    for (int i = 0; i < kept; i++) {
      smaller->append(_roots->at(i));
    }
    delete _roots;
    _roots = smaller;
  }
}

void TeraHeapRoots::add(Handle root, jlong label) {
  jweak handle = JNIHandles::make_weak_global(root, AllocFailStrategy::EXIT_OOM);
  GrowableArrayCHeap<jweak, mtGC> dead;
  {
    MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
    _roots->append(TeraHeapTaggedRoot{handle, label, false});
    if (_roots->length() >= _sweep_at) {
      sweep(&dead);
    }
  }
  for (int i = 0; i < dead.length(); i++) {
    JNIHandles::destroy_weak_global(dead.at(i));
  }
}

void TeraHeapRoots::sweep_soon() {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _sweep_at = MIN2(_sweep_at, _roots->length() + 1);
}

void TeraHeapRoots::advise_move(jlong label) {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _movable->append_if_missing(label);
}

bool TeraHeapRoots::has_move_hint(jlong label) {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  return _movable->contains(label);
}

size_t TeraHeapRoots::live_count() {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  size_t live = 0;
  for (int i = 0; i < _roots->length(); i++) {
    oop root = resolve_no_keepalive(_roots->at(i).root);
    if (root != NULL && !TeraHeapAddressSpace::contains(root)) {
      live++;
    }
  }
  return live;
}

void TeraHeapRoots::consume_hints(const GrowableArray<jlong>* keep) {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  for (int i = _movable->length() - 1; i >= 0; i--) {
    if (!keep->contains(_movable->at(i))) {
      _movable->remove_at(i);
    }
  }
}

oop TeraHeapRoots::resolve_no_keepalive(jweak handle) {
  assert(((uintptr_t)handle & JNIHandles::weak_tag_mask) == (uintptr_t)JNIHandles::weak_tag_value, "a weak handle");
  oop* slot = (oop*)((uintptr_t)handle - JNIHandles::weak_tag_value);
  return NativeAccess<ON_PHANTOM_OOP_REF | AS_NO_KEEPALIVE>::oop_load(slot);
}

// Between a pause's move and its evacuation, a moved root's handle still
// names the old copy, which forwards to H2.
static bool stays_in_h1(jweak handle) {
  oop root = TeraHeapRoots::resolve_no_keepalive(handle);
  if (root == NULL || TeraHeapAddressSpace::contains(root)) {
    return false;
  }
  return !(root->is_forwarded() && TeraHeapAddressSpace::contains(root->forwardee()));
}

void TeraHeapRoots::consume_hints_of_moved(const GrowableArray<jlong>* offered) {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  for (int i = _movable->length() - 1; i >= 0; i--) {
    const jlong label = _movable->at(i);
    if (!offered->contains(label)) {
      continue;
    }
    bool left = false;
    for (int k = 0; k < _roots->length() && !left; k++) {
      left = _roots->at(k).label == label && stays_in_h1(_roots->at(k).root);
    }
    if (!left) {
      _movable->remove_at(i);
    }
  }
}

void TeraHeapRoots::offer_again_those_in_h1() {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  for (int k = 0; k < _roots->length(); k++) {
    TeraHeapTaggedRoot* e = _roots->adr_at(k);
    if (e->offered && stays_in_h1(e->root)) {
      e->offered = false;
    }
  }
}

size_t TeraHeapRoots::movable_label_count() {
  MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  return (size_t)_movable->length();
}
