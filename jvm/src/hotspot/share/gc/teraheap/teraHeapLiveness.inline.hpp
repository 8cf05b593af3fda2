/*
 * Which regions a full GC keeps: reading a live region, for any collector's marker.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_INLINE_HPP

#include "gc/teraheap/teraHeapLiveness.hpp"

#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardClosure.inline.hpp"
#include "gc/teraheap/teraHeapCardStats.hpp"
#include "gc/teraheap/teraHeapCardWalker.inline.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/klass.inline.hpp"
#include "runtime/atomic.hpp"

// Marks through a live region's card: H1 referents go to the collector's
// marker, H2 referents make their regions live.
template <class Marker>
class TeraHeapMarkClosure : public TeraHeapCardClosure {
  Marker* _marker;
public:
  TeraHeapMarkClosure(Marker* marker, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _marker(marker) {}

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeapAddressSpace::contains(o)) {
      // Only live regions' cards are read: the target lives too. (Also when
      // the field's object is dead: a region that stays must not refer into
      // one that an evacuation frees.)
      link(o);
      TeraHeapLiveness::mark_reached(_regions, o);
    } else {
      _marker->mark_and_push(p);
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// Reads the non-clean cards of `region`, a live one, as a source of roots; its
// summarized cards are left for mark_summarized_cards if they may be.
template <class Marker>
void TeraHeapLiveness::mark_cards(TeraHeapRegions* regions, uint region, Marker* marker) {
  TeraHeapMarkClosure<Marker> cl(marker, regions);
  const bool skip_summarized = begin_reading_cards(regions, region);
  bool found = false;
  size_t counts[TeraHeapCardStats::states] = {0, 0, 0};
  TeraHeapCardWalker::walk(regions, region, true,
                           [&](TeraHeapCards::CardValue v) {
                             return v != TeraHeapCards::clean && (!skip_summarized || v != TeraHeapCards::summarized);
                           },
                           [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                             found = true;
                             if (*card == TeraHeapCards::dirty) {
                               regions->note_written(region);
                             }
                             counts[TeraHeapCardStats::state_index(*card)]++;
                             cl.start_card(mr);
                             TeraHeapCardWalker::iterate_fields(obj, mr, &cl);
                           });
  if (skip_summarized) {
    TeraHeapBackwardTargets::list_skipped(region);
  }
  // A region whose cards are all clean has nothing for the adjust step.
  regions->set_has_cards(region, found || !TeraHeapBackwardTargets::is_empty(region));
  TeraHeapCardStats::add_marked(counts);
}

template <class Marker>
inline void TeraHeapLiveness::mark_summarized_cards(TeraHeapRegions* regions, uint region, Marker* marker) {
  TeraHeapMarkClosure<Marker> cl(marker, regions);
  TeraHeapCardWalker::walk(regions, region, false,
                           [](TeraHeapCards::CardValue v) { return v == TeraHeapCards::summarized; },
                           [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                             cl.start_card(mr);
                             TeraHeapCardWalker::iterate_fields(obj, mr, &cl);
                           });
}

template <class Marker>
inline bool TeraHeapLiveness::mark_from_live_region(TeraHeapRegions* regions, Marker* marker) {
  if (!Atomic::load_acquire(&_reading)) {
    return false;
  }
  const uint r = regions->claim_pending();
  if (r == UINT_MAX) {
    return false;
  }
  // Links inside a label were recorded when its group moved (or when a minor
  // GC found them on a written card) and stand for references on clean cards.
  GrowableArrayCHeap<uint, mtGC>* deps = regions->dependencies(r);
  for (int k = 0; deps != NULL && k < deps->length(); k++) {
    regions->mark_live(deps->at(k));
  }
  // The collector never traces H2: the classes of a live region's objects
  // must not unload under them.
  GrowableArrayCHeap<Klass*, mtGC>* klasses = regions->klasses(r);
  for (int k = 0; klasses != NULL && k < klasses->length(); k++) {
    oop mirror = klasses->at(k)->java_mirror_no_keepalive();
    if (mirror != NULL) {
      marker->mark_and_push(&mirror);
    }
    marker->follow_klass(klasses->at(k));
  }
  if (TeraHeapEvacuation::is_traced_region(regions->bottom(r))) {
    // The trace marks what its reached objects refer to. The cards stay for
    // the adjust step, which reads them all: what the region remembers for
    // its summarized cards may name objects only dead ones referred to.
    regions->set_has_cards(r, true);
    if (!TeraHeapBackwardTargets::is_empty(r)) {
      TeraHeapBackwardTargets::set_stale(r);
    }
    return true;
  }
  mark_cards(regions, r, marker);
  return true;
}

#endif // SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_INLINE_HPP
