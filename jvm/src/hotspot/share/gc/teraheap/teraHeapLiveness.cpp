/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapLiveness.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "oops/klass.inline.hpp"

void TeraHeapLiveness::prepare(TeraHeapRegions* regions) {
  regions->clear_live();
}

void TeraHeapLiveness::mark_reached(TeraHeapRegions* regions, oop obj) {
  regions->mark_live(regions->raw_index_of(obj));
  TeraHeapEvacuation::reached(obj);
}

bool TeraHeapLiveness::mark_from_live_region(TeraHeapRegions* regions, ParCompactionManager* cm) {
  const uint r = regions->claim_pending();
  if (r == UINT_MAX) {
    return false;
  }
  // Links inside a label were recorded when its group moved (or when a minor
  // GC found them on a written card) and stand for references on clean cards.
  GrowableArrayCHeap<uint, mtGC>* deps = regions->dependencies(r);
  for (int k = 0; deps != NULL && k < deps->length(); k++) {
    regions->mark_live(deps->at(k));
  }
  // The collector never traces H2: the classes of a live region's objects
  // must not unload under them.
  GrowableArrayCHeap<Klass*, mtGC>* klasses = regions->klasses(r);
  for (int k = 0; klasses != NULL && k < klasses->length(); k++) {
    oop mirror = klasses->at(k)->java_mirror_no_keepalive();
    if (mirror != NULL) {
      cm->mark_and_push(&mirror);
    }
    cm->follow_klass(klasses->at(k));
  }
  TeraHeapCards::mark(regions, r, cm);
  return true;
}
