/*
 * Orphaned labels, and the full GC at which each is next traced.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapOrphans.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"

GrowableArrayCHeap<TeraHeapOrphans::Orphan, mtGC>* TeraHeapOrphans::_orphans = NULL;

int TeraHeapOrphans::compare(const Orphan& a, const Orphan& b) {
  return a.label < b.label ? -1 : (a.label > b.label ? 1 : 0);
}

static int compare_labels(const jlong& a, const jlong& b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

void TeraHeapOrphans::initialize() {
  _orphans = new GrowableArrayCHeap<Orphan, mtGC>(16);
}

TeraHeapOrphans::Orphan* TeraHeapOrphans::find(jlong label) {
  bool found;
  const int at = _orphans->find_sorted<Orphan, compare>(Orphan{label, 0, 0, false, false}, found);
  return found ? _orphans->adr_at(at) : NULL;
}

bool TeraHeapOrphans::is_due(jlong label, uint gc) {
  const Orphan* o = find(label);
  return o != NULL && (o->orphaned || o->written) && o->next_gc <= gc;
}

bool TeraHeapOrphans::is_orphaned(jlong label) {
  const Orphan* o = find(label);
  return o != NULL && o->orphaned;
}

void TeraHeapOrphans::back_off(jlong label, uint gc) {
  Orphan* o = find(label);
  o->next_gc = gc + o->interval;
  o->interval = MIN2(o->interval * 2, longest_interval);
}

void TeraHeapOrphans::trace_soon(jlong label, uint gc) {
  Orphan* o = find(label);
  if (o != NULL) {
    o->next_gc = gc + 1;
    o->interval = 1;
  }
}

void TeraHeapOrphans::update(const TeraHeapRegions* regions, GrowableArrayCHeap<jlong, mtGC>* held, uint gc) {
  GrowableArrayCHeap<Orphan, mtGC>* orphans = new GrowableArrayCHeap<Orphan, mtGC>(16);
  for (int k = 0; k < regions->in_use_count(); k++) {
    const uint r = regions->in_use_region(k);
    const jlong label = regions->label(r);
    bool found;
    const int at = orphans->find_sorted<Orphan, compare>(Orphan{label, 0, 0, false, false}, found);
    if (found) {
      orphans->adr_at(at)->written |= regions->written(r);
      continue;
    }
    held->find_sorted<jlong, compare_labels>(label, found);
    const bool orphaned = !found;
    const bool written = regions->written(r);
    const Orphan* known = find(label);
    if (!orphaned && !written && known == NULL) {
      continue;
    }
    Orphan o = known != NULL ? *known : Orphan{label, gc + 1, 1, false, false};
    o.orphaned = orphaned;
    o.written = written;
    orphans->insert_sorted<compare>(o);
  }
  delete _orphans;
  _orphans = orphans;
}
