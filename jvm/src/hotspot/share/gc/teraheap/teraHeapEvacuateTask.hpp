/*
 * The copy of sparse labels' reached objects into fresh regions, on all GC workers.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPEVACUATETASK_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPEVACUATETASK_HPP

#include "gc/shared/workgroup.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapMoveBuffers;
class TeraHeapRegions;
class TeraHeapTracedRegion;

// A label chosen for evacuation: its traced regions are [a, b) of TeraHeapTrace's list.
struct TeraHeapEvacuatedLabel {
  jlong         label;
  int           a;
  int           b;
  volatile bool complete;   // every reached object was copied
  size_t        room;       // words it may copy before H2 runs out: SIZE_MAX but when testing
  volatile size_t claimed;  // words it copied, counted only when room is limited
};

// A traced region to copy: its index in TeraHeapTrace's list, and its label's in the chosen labels.
struct TeraHeapEvacuatedRegion {
  int traced;
  int label;
};

// Copies the reached objects of the chosen labels' traced regions on all GC
// workers: each worker takes the next traced region and copies its objects,
// in address order, through its own buffers into fresh regions of the label
// (so a region's objects stay in their depth-first order). Objects are never
// shared between workers, so forwarding takes no atomics. If H2 runs out of
// room, what is not copied stays where it is, its cards dirtied so that the
// adjust phase points it at what did move, and the label keeps its regions.
class TeraHeapEvacuateTask : public AbstractGangTask {
  TeraHeapRegions* _regions;
  GrowableArray<TeraHeapEvacuatedLabel>*  _labels;
  GrowableArray<TeraHeapEvacuatedRegion>* _regions_to_copy;
  volatile int        _next;
  volatile size_t     _objects;
  volatile size_t     _words;

  static bool has_room(TeraHeapEvacuatedLabel* l, size_t size);

  void copy_region(TeraHeapMoveBuffers* buffers, TeraHeapEvacuatedLabel* l, const TeraHeapTracedRegion* t,
                   size_t* objects, size_t* words);

public:
  TeraHeapEvacuateTask(TeraHeapRegions* regions, GrowableArray<TeraHeapEvacuatedLabel>* labels,
                       GrowableArray<TeraHeapEvacuatedRegion>* regions_to_copy) :
    AbstractGangTask("TeraHeap Evacuate"), _regions(regions), _labels(labels), _regions_to_copy(regions_to_copy),
    _next(0), _objects(0), _words(0) {}

  void work(uint worker_id);

  size_t objects() const { return _objects; }
  size_t words() const { return _words; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPEVACUATETASK_HPP
