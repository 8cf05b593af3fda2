/*
 * A full GC's groups moved by all GC workers.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPMOVETASK_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPMOVETASK_HPP

#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapRegions;
class TeraHeapSingletons;

// The groups one full GC may move, moved by all GC workers: each worker takes
// the next group in tagging order and moves it whole with its own mover, so a
// group keeps its depth-first layout. Advised groups move; others only while
// H1 is above the high threshold (`pressure`), until the words moved bring
// its live data down to `target`.
class TeraHeapMoveTask : public AbstractGangTask {
public:
  struct Group {
    oop   root;
    jlong label;
    bool  advised;
    bool  left;      // advised, but some of it stayed in H1
    bool  outside;   // some of it lay outside what this collection moves (a pause's collection set)
    size_t objects;  // moved to H2 in this GC
    size_t words;
  };

private:
  TeraHeapRegions*          _regions;
  const TeraHeapSingletons* _singletons;
  GrowableArray<Group>*     _groups;
  TeraHeapMoveShared*       _shared;
  const bool                _pressure;
  const size_t              _live;
  const size_t              _target;
  volatile int              _next;
  volatile size_t           _objects;
  volatile size_t           _too_large;
  volatile uint             _workers_moving;   // workers that moved some group

public:
  TeraHeapMoveTask(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                   GrowableArray<Group>* groups, TeraHeapMoveShared* shared,
                   bool pressure, size_t live, size_t target);

  void work(uint worker_id);

  size_t objects_moved() const { return _objects; }
  size_t too_large() const { return _too_large; }
  uint workers_moving() const { return _workers_moving; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPMOVETASK_HPP
