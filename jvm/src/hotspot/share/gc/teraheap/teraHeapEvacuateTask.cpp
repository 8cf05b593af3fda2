/*
 * The copy of sparse labels' reached objects into fresh regions, on all GC workers.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuateTask.hpp"
#include "gc/teraheap/teraHeapMoveBuffers.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapTrace.hpp"
#include "memory/resourceArea.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
#include "utilities/bitMap.inline.hpp"
#include "utilities/copy.hpp"

bool TeraHeapEvacuateTask::has_room(TeraHeapEvacuatedLabel* l, size_t size) {
  return l->room == SIZE_MAX || Atomic::add(&l->claimed, size) <= l->room;
}

void TeraHeapEvacuateTask::copy_region(TeraHeapMoveBuffers* buffers, TeraHeapEvacuatedLabel* l,
                                       const TeraHeapTracedRegion* t, size_t* objects, size_t* words) {
  uint last_region = UINT_MAX;
  Klass* last_klass = NULL;
  const BitMap::idx_t end = t->reached.size();
  for (BitMap::idx_t i = t->reached.get_next_one_offset(0); i < end; i = t->reached.get_next_one_offset(i + 1)) {
    oop obj = t->object_at(i);
    const size_t size = obj->size();
    HeapWord* to = Atomic::load(&l->complete) && has_room(l, size) ? buffers->allocate(l->label, size) : NULL;
    if (to == NULL) {
      Atomic::store(&l->complete, false);
      TeraHeapCards::dirty_range(MemRegion(cast_from_oop<HeapWord*>(obj), size));
      continue;
    }
    // The mark word goes along: identity hash and lock state stay.
    Copy::aligned_disjoint_words(cast_from_oop<HeapWord*>(obj), to, size);
    TeraHeapObjectStarts::record(to);
    const uint region = _regions->index_of(to);
    if (region != last_region || obj->klass() != last_klass) {
      _regions->record_klass(region, obj->klass());
      last_region = region;
      last_klass = obj->klass();
    }
    // Its fields refer to old copies and to H1 until the adjust phase reads these cards.
    TeraHeapCards::dirty_range(MemRegion(to, size));
    obj->forward_to(cast_to_oop(to));
    (*objects)++;
    *words += size;
  }
}

void TeraHeapEvacuateTask::work(uint worker_id) {
  ResourceMark rm;   // the buffers' list
  TeraHeapMoveBuffers buffers(_regions);
  size_t objects = 0;
  size_t words = 0;
  for (int k = Atomic::fetch_and_add(&_next, 1); k < _regions_to_copy->length(); k = Atomic::fetch_and_add(&_next, 1)) {
    const TeraHeapEvacuatedRegion& r = _regions_to_copy->at(k);
    copy_region(&buffers, _labels->adr_at(r.label), TeraHeapTrace::traced(TeraHeapTrace::region_at(r.traced)),
                &objects, &words);
  }
  buffers.retire_all();
  Atomic::add(&_objects, objects);
  Atomic::add(&_words, words);
}
