/*
 * A full GC's groups moved by all GC workers.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapMoveTask.hpp"
#include "memory/resourceArea.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"

TeraHeapMoveTask::TeraHeapMoveTask(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                                   GrowableArray<Group>* groups, TeraHeapMoveShared* shared,
                                   bool pressure, size_t live, size_t target) :
  AbstractGangTask("TeraHeap move to H2"),
  _regions(regions), _singletons(singletons), _groups(groups), _shared(shared),
  _pressure(pressure), _live(live), _target(target), _next(0), _objects(0), _too_large(0),
  _workers_moving(0) {}

void TeraHeapMoveTask::work(uint worker_id) {
  ResourceMark rm;
  TeraHeapMover mover(_regions, _singletons, _shared);
  for (int i = Atomic::fetch_and_add(&_next, 1); i < _groups->length(); i = Atomic::fetch_and_add(&_next, 1)) {
    Group* g = _groups->adr_at(i);
    const bool relieve = _pressure && _live > _target + Atomic::load(&_shared->words_moved);
    if ((g->advised || relieve) && !mover.h2_full()) {
      const size_t objects = mover.objects_moved();
      const size_t words = mover.words_moved();
      const size_t outside = mover.outside_set();
      const bool whole = mover.move_group(g->root, g->label);
      g->objects = mover.objects_moved() - objects;
      g->words = mover.words_moved() - words;
      g->outside = mover.outside_set() > outside;
      if (whole) {
        continue;
      }
    }
    // Left in H1 (in part), unless another group took it whole.
    g->left = g->advised && !g->root->is_forwarded();
  }
  mover.finish();
  Atomic::add(&_objects, mover.objects_moved());
  Atomic::add(&_too_large, mover.too_large());
  if (mover.objects_moved() > 0) {
    Atomic::inc(&_workers_moving);
  }
}
