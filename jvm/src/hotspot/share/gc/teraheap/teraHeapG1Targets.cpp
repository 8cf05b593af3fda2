/*
 * The G1 regions that H2 refers into from cards a pause does not read.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/heapRegion.hpp"
#include "gc/shared/gcId.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "memory/allocation.hpp"
#include "oops/instanceKlass.hpp"
#include "oops/klass.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/safepoint.hpp"
#include "utilities/bitMap.inline.hpp"

// A bitmap lives as long as the JVM: allocated once, through CHeapObj.
struct TeraHeapG1TargetBits : public CHeapObj<mtGC> {
  CHeapBitMap bits;
  TeraHeapG1TargetBits(BitMap::idx_t size) : bits(size, mtGC) {}
};

CHeapBitMap* TeraHeapG1Targets::_regions = NULL;
CHeapBitMap* TeraHeapG1Targets::_pending = NULL;
CHeapBitMap* TeraHeapG1Targets::_next_regions = NULL;
CHeapBitMap* TeraHeapG1Targets::_next_pending = NULL;
volatile bool TeraHeapG1Targets::_building = false;
CHeapBitMap* TeraHeapG1Targets::_found_in_pause = NULL;
CHeapBitMap* TeraHeapG1Targets::_stops_optional = NULL;
uint TeraHeapG1Targets::_pause_gc_id = GCId::undefined();

void TeraHeapG1Targets::initialize(uint g1_regions) {
  _regions = &(new TeraHeapG1TargetBits(g1_regions))->bits;
  _pending = &(new TeraHeapG1TargetBits(g1_regions))->bits;
  _next_regions = &(new TeraHeapG1TargetBits(g1_regions))->bits;
  _next_pending = &(new TeraHeapG1TargetBits(g1_regions))->bits;
  _found_in_pause = &(new TeraHeapG1TargetBits(g1_regions))->bits;
  _stops_optional = &(new TeraHeapG1TargetBits(g1_regions))->bits;
}

// Most cards refer to a few regions: read before writing the shared word.
// True if this call set it.
static bool set_bit(CHeapBitMap* bits, BitMap::idx_t index) {
  return !bits->at(index) && bits->par_set_bit(index);
}

void TeraHeapG1Targets::add(oop obj, bool read_by_mixed) {
  const uint index = G1CollectedHeap::heap()->addr_to_region(cast_from_oop<HeapWord*>(obj));
  // A region barred before the pause is no candidate by now (mixed pauses
  // give those up first): only new bars need noting.
  if (set_bit(read_by_mixed ? _pending : _regions, index) && !read_by_mixed &&
      GCId::current_or_undefined() == _pause_gc_id) {
    set_bit(_found_in_pause, index);
  }
  if (Atomic::load(&_building)) {
    set_bit(read_by_mixed ? _next_pending : _next_regions, index);
  }
}

// Class objects, class loaders and Reference objects never move to H2: a
// region a pending label refers into only through them is left alone.
static bool may_move(oop o) {
  const Klass* k = o->klass();
  if (!k->is_instance_klass()) {
    return true;
  }
  const InstanceKlass* ik = InstanceKlass::cast(k);
  return !ik->is_mirror_instance_klass() && !ik->is_class_loader_instance_klass() &&
         !ik->is_reference_instance_klass();
}

void TeraHeapG1Targets::add_referent(oop obj, uint region) {
  add(obj, TeraHeapLeftBehind::is_pending_region(region) && may_move(obj));
}

void TeraHeapG1Targets::add_optional_referent(oop obj, uint region) {
  if (!TeraHeapLeftBehind::is_pending_region(region) || !may_move(obj)) {
    add(obj);
    return;
  }
  add(obj, true);
  set_bit(_stops_optional, G1CollectedHeap::heap()->addr_to_region(cast_from_oop<HeapWord*>(obj)));
}

bool TeraHeapG1Targets::stops_optional(const HeapRegion* hr) {
  return bars_mixed(hr) || _stops_optional->at(hr->hrm_index());
}

void TeraHeapG1Targets::clear() {
  abandon_building();
  _regions->clear();
  _pending->clear();
}

void TeraHeapG1Targets::begin_building() {
  assert(SafepointSynchronize::is_at_safepoint(), "in the concurrent start pause");
  // Some labels stop pending now (TeraHeapLeftBehind::cycle_begins): what
  // their oldgen cards refer into, kept apart so far, bars mixed pauses until
  // the new set is installed (none runs before).
  _regions->set_union(*_pending);
  _next_regions->clear();
  _next_pending->clear();
  Atomic::store(&_building, true);
}

void TeraHeapG1Targets::install_built() {
  assert(SafepointSynchronize::is_at_safepoint(), "at Remark");
  assert(_building, "a marking cycle built a set");
  abandon_building();
  swap(_regions, _next_regions);
  swap(_pending, _next_pending);
}

bool TeraHeapG1Targets::contains(const HeapRegion* hr) {
  return _regions->at(hr->hrm_index()) || _pending->at(hr->hrm_index());
}

bool TeraHeapG1Targets::bars_mixed(const HeapRegion* hr) {
  return _regions->at(hr->hrm_index());
}

void TeraHeapG1Targets::pause_begins() {
  assert(SafepointSynchronize::is_at_safepoint(), "in a young or mixed pause");
  _found_in_pause->clear();
  _stops_optional->clear();
  _pause_gc_id = GCId::current();
}

bool TeraHeapG1Targets::bars_candidates(const HeapRegion* hr) {
  return bars_mixed(hr) &&
         !(GCId::current_or_undefined() == _pause_gc_id && _found_in_pause->at(hr->hrm_index()));
}
