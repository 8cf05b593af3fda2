/*
 * G1's heap size held to the limit of H1's run-time sizer.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1CollectorState.hpp"
#include "gc/g1/g1ConcurrentMark.hpp"
#include "gc/g1/g1ConcurrentMarkThread.inline.hpp"
#include "gc/g1/g1_globals.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapG1H1Sizing.hpp"
#include "gc/teraheap/teraHeapG1RootRegions.hpp"
#include "gc/teraheap/teraHeapH1Sizer.hpp"
#include "logging/log.hpp"
#include "utilities/align.hpp"

// What the sizer holds H1 to (its target, or the floor for the live data
// the last marking or full GC found), in whole regions.
static size_t limit_bytes() {
  return align_up(TeraHeapH1Sizer::limit(), HeapRegion::GrainBytes);
}

// The smallest heap that leaves G1, beside the regions in use, its minimum
// young generation and its reserve (G1NewSizePercent and G1ReservePercent of
// the heap): below it G1 would run pause after pause, growing the heap in
// each to evacuate. Eden does not count: the next pause empties it (at
// Remark it holds what came since the last pause).
static size_t floor_bytes() {
  G1CollectedHeap* g1h = G1CollectedHeap::heap();
  const size_t kept_percent = G1NewSizePercent + G1ReservePercent;
  if (kept_percent >= 100) {
    return g1h->capacity();
  }
  const size_t used_regions = g1h->num_used_regions() - g1h->eden_regions_count();
  const size_t share = 100 - kept_percent;   // of the heap, for the regions in use
  const size_t regions = (used_regions * 100 + share - 1) / share +
                         1;   // the minimum young generation is a region at least
  return regions * HeapRegion::GrainBytes;
}

// The limit, or G1's floor if it is higher.
static size_t kept_bytes() {
  return MAX2(limit_bytes(), floor_bytes());
}

// What G1 has committed above that.
static size_t excess_bytes() {
  const size_t capacity = G1CollectedHeap::heap()->capacity();
  const size_t kept = kept_bytes();
  return capacity > kept ? capacity - kept : 0;
}

static size_t bounded_expansion(size_t expand_bytes) {
  const size_t capacity = G1CollectedHeap::heap()->capacity();
  const size_t kept = kept_bytes();
  return capacity >= kept ? 0 : MIN2(expand_bytes, kept - capacity);
}

// A shrink after a young pause rebuilds G1's free list and drops the old
// region G1 keeps for its next pause's promotions: worth it for a few
// percent of the heap, not for a region.
static bool worth_a_shrink(size_t excess) {
  return excess >= MAX2(4 * HeapRegion::GrainBytes, G1CollectedHeap::heap()->capacity() / 32);
}

// Live data after marking: the old and humongous regions' live bytes as
// Remark counted them (young regions hold what came since the cycle began),
// less the advised roots the next mixed pauses move to H2.
class TeraHeapG1LiveBytesClosure : public HeapRegionClosure {
  size_t _live;
public:
  TeraHeapG1LiveBytesClosure() : _live(0) {}
  virtual bool do_heap_region(HeapRegion* hr) {
    if (hr->is_old() || hr->is_humongous()) {
      _live += TeraHeapG1RootRegions::live_bytes_staying(hr, hr->live_bytes());
    }
    return false;
  }
  size_t live() const { return _live; }
};

size_t TeraHeapG1H1Sizing::after_young_pause(size_t expand_bytes) {
  TeraHeapH1Sizer::decide_if_due();
  G1CollectedHeap* g1h = G1CollectedHeap::heap();
  const size_t excess = excess_bytes();
  if (excess > 0) {
    // Marking and the clearing of its bitmap read the side tables of
    // committed regions, from the concurrent start pause (or the pause that
    // undoes it) to the end of the clearing: only between cycles. A pause
    // that failed to evacuate needs its free regions.
    const bool cycle = g1h->collector_state()->in_concurrent_start_gc() ||
                       g1h->concurrent_mark()->cm_thread()->in_progress();
    if (!cycle && !g1h->evacuation_failed() && worth_a_shrink(excess)) {
      const size_t before = g1h->capacity();
      g1h->shrink(excess);
      g1h->uncommit_regions_if_necessary();
      if (g1h->capacity() < before) {
        log_debug(gc, teraheap, resize)("H1 shrunk after the pause: " SIZE_FORMAT "M -> " SIZE_FORMAT "M (limit "
                                        SIZE_FORMAT "M, in use " SIZE_FORMAT "M)", before / M, g1h->capacity() / M,
                                        limit_bytes() / M, g1h->used() / M);
      }
    }
    return 0;
  }
  return bounded_expansion(expand_bytes);
}

void TeraHeapG1H1Sizing::limit_resize(size_t* bytes, bool* expand) {
  G1CollectedHeap* g1h = G1CollectedHeap::heap();
  if (g1h->collector_state()->in_full_gc()) {
    TeraHeapH1Sizer::set_h1_live(g1h->used());   // compacted: what lives
  } else {
    TeraHeapG1LiveBytesClosure cl;
    g1h->heap_region_iterate(&cl);
    TeraHeapH1Sizer::set_h1_live(cl.live());
  }
  TeraHeapH1Sizer::decide_if_due();
  const size_t excess = excess_bytes();
  if (excess > 0) {
    // G1's own shrink, if larger, stands: it keeps MaxHeapFreeRatio free.
    *bytes = *expand ? excess : MAX2(*bytes, excess);
    *expand = false;
  } else if (*expand) {
    *bytes = bounded_expansion(*bytes);
  }
}
