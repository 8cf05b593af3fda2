/*
 * A minor GC's read of H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/psPromotionManager.inline.hpp"
#include "gc/parallel/psScavenge.inline.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardScavenge.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"

class TeraHeapScavengeClosure : public TeraHeapCardClosure {
  PSPromotionManager* _pm;
public:
  TeraHeapScavengeClosure(PSPromotionManager* pm, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _pm(pm) {}

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (PSScavenge::is_obj_in_young(o)) {
      _young = true;
      _pm->claim_or_forward_depth(p);
    } else if (TeraHeapAddressSpace::contains(o)) {
      link(o);
    } else {
      _old = true;
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapCardScavenge::scavenge(TeraHeapRegions* regions, PSPromotionManager* pm, uint worker_id, uint workers) {
  TeraHeapScavengeClosure cl(pm, regions);
  TeraHeapCardWalker::read_roots(regions, worker_id, workers, TeraHeapCardWalker::is_young_root, &cl,
                                 [](uint region) {}, [] {});
}
