/*
 * Which regions a full GC keeps, found while it marks.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapLiveness.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "runtime/atomic.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"

volatile bool TeraHeapLiveness::_reading = false;

// Whether the program wrote a card of start region r since the last collection.
bool TeraHeapLiveness::has_dirty_card(TeraHeapRegions* regions, uint r) {
  const MemRegion used = regions->used(r);
  if (used.is_empty()) {
    return false;
  }
  CardTable::CardValue* const end = TeraHeapCards::end_card(used);
  for (CardTable::CardValue* card = TeraHeapCards::first_card(used); card < end; ) {
    CardTable::CardValue* const page_end = MIN2(end, align_down(card, os::vm_page_size()) + os::vm_page_size());
    if (TeraHeapCardResidency::is_resident(card) && memchr(card, TeraHeapCards::dirty, page_end - card) != NULL) {
      return true;
    }
    card = page_end;
  }
  return false;
}

bool TeraHeapLiveness::begin_reading_cards(TeraHeapRegions* regions, uint region) {
  if (!TeraHeapBackwardTargets::is_empty(region) && has_dirty_card(regions, region)) {
    TeraHeapBackwardTargets::note_written(region);
  }
  const bool skip_summarized = TeraHeapBackwardTargets::may_skip(region);
  if (!TeraHeapBackwardTargets::is_empty(region) && !skip_summarized) {
    TeraHeapBackwardTargets::set_stale(region);   // read now: remembered anew by the adjust step
  }
  return skip_summarized;
}

void TeraHeapLiveness::prepare(TeraHeapRegions* regions) {
  regions->clear_live();
  Atomic::store(&_reading, false);
}

bool TeraHeapLiveness::start_reading(TeraHeapRegions* regions) {
  Atomic::release_store(&_reading, true);
  return regions->has_pending();
}

void TeraHeapLiveness::mark_reached(TeraHeapRegions* regions, oop obj) {
  regions->mark_live(regions->raw_index_of(obj));
  TeraHeapEvacuation::reached(obj);
}
