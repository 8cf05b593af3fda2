/*
 * A G1 pause's read of H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1CollectionSet.hpp"
#include "gc/g1/g1ConcurrentMark.inline.hpp"
#include "gc/g1/g1ParScanThreadState.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapG1CardScan.hpp"
#include "gc/teraheap/teraHeapG1Marking.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "oops/access.inline.hpp"
#include "oops/instanceKlass.hpp"
#include "oops/klass.inline.hpp"
#include "oops/oop.inline.hpp"

class TeraHeapG1ScanClosure : public TeraHeapCardClosure {
  G1CollectedHeap* const _g1h;
  G1ParScanThreadState* const _pss;
  G1ConcurrentMark* const _marking;   // at a concurrent start: what H2 refers to is a root

public:
  TeraHeapG1ScanClosure(G1ParScanThreadState* pss, TeraHeapRegions* regions, G1ConcurrentMark* marking) :
    TeraHeapCardClosure(regions), _g1h(G1CollectedHeap::heap()), _pss(pss), _marking(marking) {}

  // An H1 object H2 refers to that stays where it is in this pause.
  void keep(oop o, G1HeapRegionAttr attr) {
    if (attr.is_humongous()) {
      _g1h->set_humongous_is_live(o);
    }
    if (_marking != NULL) {
      _marking->mark_in_next_bitmap(_pss->worker_id(), o);
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

  void h2_target(oop o) {
    if (!link(o) && _marking != NULL) {
      TeraHeapG1Marking::add_link(_region, _regions->index_of(o));
    }
  }

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeapAddressSpace::contains(o)) {
      h2_target(o);
      return;
    }
    const G1HeapRegionAttr attr = _g1h->region_attr(o);
    assert(!attr.is_optional(), "TeraHeapG1::takes_optional_regions");
    if (attr.is_in_cset()) {
      markWord m = o->mark();
      o = m.is_marked() ? cast_to_oop(m.decode_pointer()) : _pss->copy_to_survivor_space(attr, o, m);
      RawAccess<IS_NOT_NULL>::oop_store(p, o);
      // Moved to H2 by this pause, before evacuation (TeraHeapG1::pre_evacuate).
      if (TeraHeapAddressSpace::contains(o)) {
        h2_target(o);
        return;
      }
    } else {
      keep(o, attr);
    }
    // A survivor, or an object whose evacuation failed (its region turns old
    // after the pause: the card is read once more for nothing).
    if (_g1h->heap_region_containing(o)->is_young()) {
      _young = true;
    } else {
      _old = true;
      TeraHeapG1Targets::add(o, TeraHeapLeftBehind::is_pending_region(_region) && may_move(o));
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapG1CardScan::scan(TeraHeapRegions* regions, G1ParScanThreadState* pss, uint worker_id, uint workers) {
  G1CollectedHeap* const g1h = G1CollectedHeap::heap();
  const bool concurrent_start = g1h->collector_state()->in_concurrent_start_gc();
  TeraHeapG1ScanClosure cl(pss, regions, concurrent_start ? g1h->concurrent_mark() : NULL);
  if (!concurrent_start) {
    // A mixed pause reads the pending labels' oldgen cards too: the regions
    // they refer into may be in its collection set.
    const bool mixed = g1h->collection_set()->old_region_length() > 0 && TeraHeapLeftBehind::any_pending();
    bool pending = false;
    // Copies pushed their fields: keep G1's queues short.
    TeraHeapCardWalker::read_roots(regions, worker_id, workers,
                                   [&](TeraHeapCards::CardValue v) {
                                     return TeraHeapCardWalker::is_young_root(v) ||
                                            (pending && v == TeraHeapCards::oldgen);
                                   },
                                   &cl,
                                   [&](uint region) { pending = mixed && TeraHeapLeftBehind::is_pending_region(region); },
                                   [&] { pss->trim_queue_partially(); });
    return;
  }
  // The marking cycle starting takes every reference from H2 into H1 as a
  // root: it never traces H2's objects. The objects a region's summarized
  // cards refer to are those it remembers; the classes of its objects must
  // stay loaded. Any H2 field overwritten from here on had its old value
  // logged by G1's pre-barrier.
  TeraHeapCardWalker::read_roots(regions, worker_id, workers,
                                 [](TeraHeapCards::CardValue v) {
                                   return v != TeraHeapCards::clean && v != TeraHeapCards::summarized;
                                 },
                                 &cl,
                                 [&](uint region) {
                                   TeraHeapBackwardTargets::targets_do(region, [&](oop o) {
                                     cl.keep(o, g1h->region_attr(o));
                                     TeraHeapG1Targets::add(o);
                                   });
                                   GrowableArrayCHeap<Klass*, mtGC>* klasses = regions->klasses(region);
                                   for (int k = 0; klasses != NULL && k < klasses->length(); k++) {
                                     oop mirror = klasses->at(k)->java_mirror_no_keepalive();
                                     // A mirror in the collection set is a root of G1's own.
                                     if (mirror != NULL && !g1h->region_attr(mirror).is_in_cset()) {
                                       cl.keep(mirror, g1h->region_attr(mirror));
                                     }
                                   }
                                 },
                                 [&] { pss->trim_queue_partially(); });
}
