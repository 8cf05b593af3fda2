/*
 * A G1 young pause's read of H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1ParScanThreadState.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapG1CardScan.hpp"
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
    // Optional regions come only with mixed pauses, after a marking cycle.
    assert(!attr.is_optional(), "no optional collection set");
    if (attr.is_in_cset()) {
      markWord m = o->mark();
      o = m.is_marked() ? cast_to_oop(m.decode_pointer()) : _pss->copy_to_survivor_space(attr, o, m);
      RawAccess<IS_NOT_NULL>::oop_store(p, o);
    } else if (attr.is_humongous()) {
      _g1h->set_humongous_is_live(o);
    }
    // A survivor, or an object whose evacuation failed (its region turns old
    // after the pause: the card is read once more for nothing).
    if (_g1h->heap_region_containing(o)->is_young()) {
      _young = true;
    } else {
      _old = true;
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapG1CardScan::scan(TeraHeapRegions* regions, G1ParScanThreadState* pss, uint worker_id, uint workers) {
  TeraHeapG1ScanClosure cl(pss, regions);
  // Copies pushed their fields: keep G1's queues short.
  TeraHeapCardWalker::read_young_roots(regions, worker_id, workers, &cl, [&] { pss->trim_queue_partially(); });
}
