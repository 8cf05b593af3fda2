/*
 * The G1 collector's facade: its hooks that pass G1's own types.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CardTable.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1RegionToSpaceMapper.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapG1.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "gc/teraheap/teraheap_globals.hpp"
#include "logging/log.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"
#include "utilities/debug.hpp"

// G1 as TeraHeap's collector-independent part sees it. What a pause would
// ask (marks, moves, the adjust step) is not asked yet: no G1 pause calls
// the module so far.
class TeraHeapG1Collector : public TeraHeapCollector {
  ReservedSpace         _g1_cards;   // the upper part of the card reservation, for G1's mapper
  CardTable::CardValue* _h2_cards;   // the lower part: the card of H2's first address

public:
  TeraHeapG1Collector(ReservedSpace g1_cards, CardTable::CardValue* h2_cards) :
    _g1_cards(g1_cards), _h2_cards(h2_cards) {}

  ReservedSpace g1_cards() const { return _g1_cards; }

  virtual WorkGang* workers() { return G1CollectedHeap::heap()->workers(); }
  virtual CardTable::CardValue* h2_cards(MemRegion h2) { return _h2_cards; }
  virtual bool is_young(oop obj) { return G1CollectedHeap::heap()->heap_region_containing(obj)->is_young(); }
  virtual size_t h1_capacity_words() { return G1CollectedHeap::heap()->max_capacity() / HeapWordSize; }

  virtual bool is_marked(oop obj) { ShouldNotReachHere(); return false; }
  virtual void moved(oop old_copy, oop copy, size_t words) { ShouldNotReachHere(); }
  virtual size_t h1_live_words() { ShouldNotReachHere(); return 0; }
  virtual void stress_move(TeraHeapMover* mover, size_t budget_words) { ShouldNotReachHere(); }
  virtual void adjust_cards(TeraHeapRegions* regions) { ShouldNotReachHere(); }
  // G1's full GC forwards through mark words, and its adjust phase visits
  // every live object: nothing to redirect, no forwarding table.
  virtual void moves_done() {}
  virtual void adjust_done() {}
};

static TeraHeapG1Collector* g1_collector() {
  return static_cast<TeraHeapG1Collector*>(TeraHeapCollector::current());
}

ReservedSpace TeraHeapG1::initialize(ReservedSpace heap_rs) {
  // G1's barrier skips a store whose field and value share one of its
  // regions: an H2 region must never share one with another H2 region.
  if (TeraHeapRegionSize < HeapRegion::GrainBytes) {
    TeraHeapStartupError::fail("-XX:TeraHeapRegionSize=" TH_SIZE_FORMAT " is smaller than G1's region size ("
                               TH_SIZE_FORMAT "): give at least that, or a smaller -XX:G1HeapRegionSize",
                               TH_SIZE_ARGS(TeraHeapRegionSize), TH_SIZE_ARGS(HeapRegion::GrainBytes));
  }
  // H2's cards span its whole reservation, so that they end where G1's begin.
  // HeapAlignment is at least a card per page of card bytes: a page boundary.
  const size_t h2_reserved = TeraHeap::reserved_size();
  const size_t h2_cards = h2_reserved >> CardTable::card_shift;
  const size_t g1_cards = G1CardTable::compute_size((heap_rs.size() - h2_reserved) / HeapWordSize);
  assert(is_aligned(h2_cards, os::vm_page_size()), "H2's cards end on a page boundary");
  // Small pages: H2's cards are committed, watched and given back page by page.
  ReservedSpace cards(h2_cards + g1_cards, os::vm_page_size());
  if (!cards.is_reserved()) {
    TeraHeapStartupError::fail("could not reserve " TH_SIZE_FORMAT " of address space for the card table of H2 "
                               "and G1's heap: give a smaller -XX:TeraHeapSize or -Xmx", TH_SIZE_ARGS(h2_cards + g1_cards));
  }
  TeraHeapG1Collector* collector = new TeraHeapG1Collector(cards.last_part(h2_cards),
                                                           (CardTable::CardValue*)cards.base());
  log_debug(gc, init)("TeraHeap card table: H2's [" PTR_FORMAT ", " PTR_FORMAT "), G1's [" PTR_FORMAT ", " PTR_FORMAT ")",
                      p2i(cards.base()), p2i(cards.base() + h2_cards), p2i(cards.base() + h2_cards),
                      p2i(cards.base() + h2_cards + g1_cards));
  return TeraHeap::initialize(heap_rs, collector);
}

G1RegionToSpaceMapper* TeraHeapG1::card_table_mapper(size_t size, size_t translation_factor) {
  const ReservedSpace rs = g1_collector()->g1_cards();
  assert(rs.size() == size, "G1's card array is the size reserved for it");
  G1RegionToSpaceMapper* mapper = G1RegionToSpaceMapper::create_mapper(rs, size, rs.page_size(), HeapRegion::GrainBytes,
                                                                       translation_factor, mtGC);
  os::trace_page_sizes_for_requested_size("Card Table", size, rs.page_size(), rs.page_size(), rs.base(), rs.size());
  return mapper;
}
