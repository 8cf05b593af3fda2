/*
 * The full GC's adjust step over H2's cards, for any collector's adjuster.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDADJUST_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDADJUST_INLINE_HPP

#include "gc/teraheap/teraHeapCardAdjust.hpp"

#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.inline.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardStats.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "runtime/atomic.hpp"

// Adjusts the fields on one card through the collector's adjuster, and
// learns what they refer to.
template <class Adjuster>
class TeraHeapAdjustClosure : public TeraHeapCardClosure {
  static const uint max_card_targets = 64;

  Adjuster* _adjuster;
  oop  _card_targets[max_card_targets];   // the card's old referents, at their new addresses
  uint _card_target_count;
  bool _card_targets_overflow;

  void remember(oop o) {
    if (_card_target_count > 0 && _card_targets[_card_target_count - 1] == o) {
      return;
    }
    if (_card_target_count == max_card_targets) {
      _card_targets_overflow = true;
      return;
    }
    _card_targets[_card_target_count++] = o;
  }

public:
  TeraHeapAdjustClosure(Adjuster* adjuster, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _adjuster(adjuster), _card_target_count(0), _card_targets_overflow(false) {}

  void start_card(MemRegion card) {
    TeraHeapCardClosure::start_card(card);
    _card_target_count = 0;
    _card_targets_overflow = false;
  }
  // Whether the card just read can be summarized: it refers outside its
  // label only to old objects, which `region` now remembers. If it refers to
  // old objects and cannot be, counts why in `why_not`.
  bool summarize(uint region, size_t* why_not) const {
    if (!_old) {
      return false;
    }
    if (_young || _linked || _card_targets_overflow) {
      why_not[_young ? TeraHeapCardStats::refers_to_young
                    : (_linked ? TeraHeapCardStats::links_other_label : TeraHeapCardStats::too_many_targets)]++;
      return false;
    }
    for (uint i = 0; i < _card_target_count; i++) {
      if (!TeraHeapBackwardTargets::add(region, _card_targets[i])) {
        why_not[TeraHeapCardStats::region_set_full]++;
        return false;
      }
    }
    return true;
  }

  template <class T> void do_oop_work(T* p) {
    _adjuster->adjust(p);
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeapAddressSpace::contains(o)) {
      link(o);
    } else {
      _h1 = true;
      if (_adjuster->is_young(o)) {
        _young = true;
      } else {
        _old = true;
        _adjuster->old_target(o);
        remember(o);
      }
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// The regions in use, claimed one at a time by the GC workers: after a move,
// the regions just filled hold most of the cards to adjust.
template <class Adjuster>
class TeraHeapAdjustTask : public AbstractGangTask {
  TeraHeapRegions* _regions;
  volatile int     _next;

public:
  TeraHeapAdjustTask(TeraHeapRegions* regions) :
    AbstractGangTask("TeraHeap adjust H2"), _regions(regions), _next(0) {}

  void work(uint worker_id) {
    Adjuster adjuster(worker_id);
    TeraHeapAdjustClosure<Adjuster> cl(&adjuster, _regions);
    size_t count = 0;
    size_t count_h1 = 0;
    size_t count_summarized = 0;
    size_t why_not[TeraHeapCardStats::unsummarized_reasons] = {0, 0, 0, 0};
    for (int k = Atomic::fetch_and_add(&_next, 1); k < _regions->in_use_count(); k = Atomic::fetch_and_add(&_next, 1)) {
      const uint r = _regions->in_use_region(k);
      if (!_regions->has_cards(r)) {
        continue;
      }
      // Summarized cards are read only if an object the region remembers
      // moves, or the region is stale; then what they refer to is
      // remembered anew. (A stale region's objects were not marked for it.)
      const bool reread = TeraHeapBackwardTargets::is_stale(r) || TeraHeapBackwardTargets::any_moves(r, &adjuster);
      if (reread) {
        TeraHeapBackwardTargets::clear(r);
      }
      TeraHeapCardWalker::walk(_regions, r, false,
                               [&](TeraHeapCards::CardValue v) {
                                 return v != TeraHeapCards::clean && (reread || v != TeraHeapCards::summarized);
                               },
                               [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                                 count++;
                                 cl.start_card(mr);
                                 TeraHeapCardWalker::iterate_fields(obj, mr, &cl);
                                 count_h1 += cl.refers_to_h1() ? 1 : 0;
                                 if (cl.summarize(r, why_not)) {
                                   *card = TeraHeapCards::summarized;
                                   count_summarized++;
                                 } else {
                                   *card = cl.state();
                                 }
                               });
    }
    TeraHeapCardStats::add_adjusted(count, count_h1, count_summarized, why_not);
  }
};

template <class Adjuster>
void TeraHeapCardAdjust::adjust(TeraHeapRegions* regions) {
  TeraHeapAdjustTask<Adjuster> task(regions);
  TeraHeapCollector::current()->workers()->run_task(&task);
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDADJUST_INLINE_HPP
