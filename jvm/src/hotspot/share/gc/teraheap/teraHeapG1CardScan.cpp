/*
 * A G1 pause's read of H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1CollectionSet.hpp"
#include "gc/g1/g1ParScanThreadState.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapG1CardScan.hpp"
#include "gc/teraheap/teraHeapG1Targets.hpp"
#include "gc/teraheap/teraHeapLeftBehind.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "oops/access.inline.hpp"
#include "oops/oop.inline.hpp"

class TeraHeapG1ScanClosure : public TeraHeapCardClosure {
  G1CollectedHeap* const _g1h;
  G1ParScanThreadState* const _pss;

public:
  TeraHeapG1ScanClosure(G1ParScanThreadState* pss, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _g1h(G1CollectedHeap::heap()), _pss(pss) {}

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeapAddressSpace::contains(o)) {
      link(o);
      return;
    }
    const G1HeapRegionAttr attr = _g1h->region_attr(o);
    if (attr.is_optional()) {
      // An optional region joins the collection set after this read, and its
      // increments do not read H2's cards again (TeraHeapG1::bars_optional_region).
      TeraHeapG1Targets::add_optional_referent(o, _region);
    }
    if (attr.is_in_cset()) {
      markWord m = o->mark();
      o = m.is_marked() ? cast_to_oop(m.decode_pointer()) : _pss->copy_to_survivor_space(attr, o, m);
      RawAccess<IS_NOT_NULL>::oop_store(p, o);
      // Moved to H2 by this pause, before evacuation (TeraHeapG1::pre_evacuate).
      if (TeraHeapAddressSpace::contains(o)) {
        link(o);
        return;
      }
    } else if (attr.is_humongous()) {
      // An H1 object H2 refers to that stays where it is in this pause.
      _g1h->set_humongous_is_live(o);
    }
    // A survivor, or an object whose evacuation failed (its region turns old
    // after the pause: the card is read once more for nothing).
    if (_g1h->heap_region_containing(o)->is_young()) {
      _young = true;
    } else {
      _old = true;
      TeraHeapG1Targets::add_referent(o, _region);
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapG1CardScan::scan(TeraHeapRegions* regions, G1ParScanThreadState* pss, uint worker_id, uint workers) {
  G1CollectedHeap* const g1h = G1CollectedHeap::heap();
  TeraHeapG1ScanClosure cl(pss, regions);
  // A mixed pause reads the pending labels' oldgen cards too: the regions
  // they refer into may be in its collection set, or among its optional ones
  // (unless its walk of them raised those it must read).
  G1CollectionSet* const cset = g1h->collection_set();
  const bool mixed = (cset->old_region_length() > 0 || cset->optional_region_length() > 0) &&
                     TeraHeapLeftBehind::pause_reads_pending_cards();
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
}
