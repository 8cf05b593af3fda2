/*
 * Tagged roots in H2, per region, and whether marking from outside H2 reached them.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapH2Roots.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/allocation.hpp"
#include "memory/resourceArea.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"

TeraHeapRegions* TeraHeapH2Roots::_regions = NULL;
TeraHeapH2Roots::RootList** TeraHeapH2Roots::_roots = NULL;
GrowableArrayCHeap<uint, mtGC>* TeraHeapH2Roots::_rooted_regions = NULL;
volatile bool TeraHeapH2Roots::_counting = false;

int TeraHeapH2Roots::compare_root_to(HeapWord* const& a, const Root& b) {
  return a < b.addr ? -1 : (a > b.addr ? 1 : 0);
}

int TeraHeapH2Roots::compare_roots(const Root& a, const Root& b) {
  return compare_root_to(a.addr, b);
}

static int compare_labels(const jlong& a, const jlong& b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

void TeraHeapH2Roots::initialize(TeraHeapRegions* regions) {
  _regions = regions;
  _roots = NEW_C_HEAP_ARRAY(RootList*, regions->count(), mtGC);
  for (uint i = 0; i < regions->count(); i++) {
    _roots[i] = NULL;
  }
  _rooted_regions = new GrowableArrayCHeap<uint, mtGC>(16);
}

void TeraHeapH2Roots::begin_marking() {
  for (int k = 0; k < _rooted_regions->length(); k++) {
    RootList* roots = _roots[_rooted_regions->at(k)];
    for (int j = 0; j < roots->length(); j++) {
      roots->adr_at(j)->reached = false;
    }
  }
  _counting = true;
}

// A root reached only after the marking from roots, through a live region's
// cards, may be held by its own group: a field of a dropped group that the
// program wrote after the move (HashMap's cached values() view, a young
// object) leads to an H1 object that leads back to the group's root. Such a
// root does not hold its label, whose next trace then decides object by object.
void TeraHeapH2Roots::flag_if_root(uint r, oop obj) {
  RootList* roots = _roots[r];
  bool found;
  const int at = roots->find_sorted<HeapWord*, compare_root_to>(cast_from_oop<HeapWord*>(obj), found);
  if (found && !Atomic::load(&roots->adr_at(at)->reached)) {
    Atomic::store(&roots->adr_at(at)->reached, true);
  }
}

void TeraHeapH2Roots::end_marking_from_roots() {
  Atomic::store(&_counting, false);
}

void TeraHeapH2Roots::add(oop root) {
  const uint r = _regions->index_of(root);
  if (_roots[r] == NULL) {
    _roots[r] = new RootList(4);
    _rooted_regions->append(r);
  }
  _roots[r]->insert_sorted<compare_roots>(Root{cast_from_oop<HeapWord*>(root), true});
}

void TeraHeapH2Roots::forget_freed() {
  int kept = 0;
  for (int k = 0; k < _rooted_regions->length(); k++) {
    const uint r = _rooted_regions->at(k);
    if (_regions->in_use(r)) {
      _rooted_regions->at_put(kept++, r);
    } else {
      delete _roots[r];
      _roots[r] = NULL;
    }
  }
  _rooted_regions->trunc_to(kept);
}

// Those not copied stay on the region's list: dead with it if it is freed,
// else still there.
void TeraHeapH2Roots::follow_copies(uint r) {
  RootList* roots = _roots[r];
  if (roots == NULL) {
    return;
  }
  int kept = 0;
  for (int j = 0; j < roots->length(); j++) {
    oop root = cast_to_oop(roots->at(j).addr);
    if (root->is_forwarded()) {
      assert(_regions->index_of(root->forwardee()) != r, "copies go to fresh regions");
      add(root->forwardee());
    } else {
      roots->at_put(kept++, roots->at(j));
    }
  }
  roots->trunc_to(kept);
}

void TeraHeapH2Roots::forget_dead(uint r, bool is_live(oop)) {
  RootList* roots = _roots[r];
  if (roots == NULL || !_regions->in_use(r)) {
    return;
  }
  int kept = 0;
  for (int j = 0; j < roots->length(); j++) {
    if (is_live(cast_to_oop(roots->at(j).addr))) {
      roots->at_put(kept++, roots->at(j));
    }
  }
  roots->trunc_to(kept);
}

void TeraHeapH2Roots::held_labels(GrowableArrayCHeap<jlong, mtGC>* held) {
  ResourceMark rm;
  GrowableArray<jlong> not_held;
  held->clear();
  for (int k = 0; k < _rooted_regions->length(); k++) {
    const uint r = _rooted_regions->at(k);
    const RootList* roots = _roots[r];
    if (roots->is_empty()) {
      continue;
    }
    bool all = true;
    for (int j = 0; j < roots->length() && all; j++) {
      all = roots->at(j).reached;
    }
    if (all) {
      held->insert_sorted<compare_labels>(_regions->label(r));
    } else {
      not_held.insert_sorted<compare_labels>(_regions->label(r));
    }
  }
  for (int k = 0; k < not_held.length(); k++) {
    bool found;
    const int at = held->find_sorted<jlong, compare_labels>(not_held.at(k), found);
    if (found) {
      held->remove_at(at);
    }
  }
}
