/*
 * Which regions a full GC keeps, found while it marks.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/parallelScavengeHeap.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapLiveness.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/klass.inline.hpp"
#include "runtime/atomic.hpp"

// False during the marking from roots: regions it reaches wait in the queue.
static volatile bool _reading = false;

void TeraHeapLiveness::prepare(TeraHeapRegions* regions) {
  regions->clear_live();
  Atomic::store(&_reading, false);
}

// Drains the queue of live regions, and what reading them marks. A worker
// whose stacks and the queue are empty steals from the others' stacks; when
// there is nothing to steal it stops, and what the others still mark (and
// the regions that queues) they finish themselves: a worker's loop ends only
// once its stacks and the queue are empty.
class TeraHeapReadRegionsTask : public AbstractGangTask {
public:
  TeraHeapReadRegionsTask() : AbstractGangTask("TeraHeap read live regions") {}

  void work(uint worker_id) {
    ParCompactionManager* cm = ParCompactionManager::gc_thread_compaction_manager(worker_id);
    for (;;) {
      cm->follow_marking_stacks();
      ObjArrayTask task;
      oop obj;
      if (ParCompactionManager::steal_objarray(worker_id, task)) {
        cm->follow_array((objArrayOop)task.obj(), task.index());
      } else if (ParCompactionManager::steal(worker_id, obj)) {
        cm->follow_contents(obj);
      } else {
        return;
      }
    }
  }
};

void TeraHeapLiveness::read_reached_regions(TeraHeapRegions* regions) {
  Atomic::release_store(&_reading, true);
  if (!regions->has_pending()) {
    return;
  }
  TeraHeapReadRegionsTask task;
  ParallelScavengeHeap::heap()->workers().run_task(&task);
}

void TeraHeapLiveness::mark_reached(TeraHeapRegions* regions, oop obj) {
  regions->mark_live(regions->raw_index_of(obj));
  TeraHeapEvacuation::reached(obj);
}

bool TeraHeapLiveness::mark_from_live_region(TeraHeapRegions* regions, ParCompactionManager* cm) {
  if (!Atomic::load_acquire(&_reading)) {
    return false;
  }
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
  if (TeraHeapEvacuation::is_traced_region(regions->bottom(r))) {
    // The trace marks what its reached objects refer to. The cards stay for
    // the adjust step, which reads them all: what the region remembers for
    // its summarized cards may name objects only dead ones referred to.
    regions->set_has_cards(r, true);
    if (!regions->backward_targets()->is_empty(r)) {
      regions->backward_targets()->set_stale(r);
    }
    return true;
  }
  TeraHeapCards::mark(regions, r, cm);
  return true;
}
