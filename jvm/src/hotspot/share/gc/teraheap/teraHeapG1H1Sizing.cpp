/*
 * G1's heap size held to the target of H1's run-time sizer.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1CollectorState.hpp"
#include "gc/g1/g1ConcurrentMark.hpp"
#include "gc/g1/g1ConcurrentMarkThread.inline.hpp"
#include "gc/g1/heapRegion.inline.hpp"
#include "gc/teraheap/teraHeapG1H1Sizing.hpp"
#include "gc/teraheap/teraHeapH1Sizer.hpp"
#include "logging/log.hpp"
#include "utilities/align.hpp"

// The target in whole regions.
static size_t target_bytes() {
  return align_up(TeraHeapH1Sizer::target(), HeapRegion::GrainBytes);
}

// What G1 has committed above the target; nothing below a region.
static size_t excess_bytes() {
  const size_t capacity = G1CollectedHeap::heap()->capacity();
  const size_t target = target_bytes();
  return capacity > target ? capacity - target : 0;
}

static size_t bounded_expansion(size_t expand_bytes) {
  const size_t capacity = G1CollectedHeap::heap()->capacity();
  const size_t target = target_bytes();
  return capacity >= target ? 0 : MIN2(expand_bytes, target - capacity);
}

// Live data after marking: the old and humongous regions' live bytes as
// Remark counted them (young regions hold what came since the cycle began).
class TeraHeapG1LiveBytesClosure : public HeapRegionClosure {
  size_t _live;
public:
  TeraHeapG1LiveBytesClosure() : _live(0) {}
  virtual bool do_heap_region(HeapRegion* hr) {
    if (hr->is_old() || hr->is_humongous()) {
      _live += hr->live_bytes();
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
    // committed regions: only between cycles.
    const bool cycle = g1h->collector_state()->in_concurrent_start_gc() ||
                       g1h->collector_state()->mark_or_rebuild_in_progress() ||
                       g1h->collector_state()->clearing_next_bitmap() ||
                       g1h->concurrent_mark()->cm_thread()->in_progress();
    if (!cycle) {
      const size_t before = g1h->capacity();
      g1h->shrink(excess);
      g1h->uncommit_regions_if_necessary();
      if (g1h->capacity() < before) {
        log_debug(gc, teraheap, resize)("H1 shrunk after the pause: " SIZE_FORMAT "M -> " SIZE_FORMAT "M (target "
                                        SIZE_FORMAT "M)", before / M, g1h->capacity() / M, target_bytes() / M);
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
    *bytes = *expand ? excess : MAX2(*bytes, excess);
    *expand = false;
  } else if (*expand) {
    *bytes = bounded_expansion(*bytes);
  }
}
