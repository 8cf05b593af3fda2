/*
 * G1's heap size held to the limit of H1's run-time sizer.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1H1SIZING_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1H1SIZING_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// -XX:+TeraHeapDynamicH1 under G1 (TeraHeapH1Sizer decides the target).
// G1 sizes its heap itself: after a young or mixed pause it expands when its
// GC time passes the GCTimeRatio goal, and at Remark and after a full GC it
// resizes to MinHeapFreeRatio and MaxHeapFreeRatio, uncommitting free
// regions. Both are capped at the sizer's limit (its target, or 1.5x the
// live data the last marking or full GC found), or at a floor if that is
// higher: the regions in use outside eden plus G1's minimum young generation and
// reserve, which no shrink goes below. A heap above both shrinks at Remark
// and after a full GC, and at the end of a young or mixed pause while no
// marking cycle runs (a job that scans H2 may run no cycle for minutes):
// right after evacuation the free regions are many, and no concurrent phase
// reads the side tables of the regions given back. G1's young generation is
// sized from the free regions of the committed heap, so it follows.
class TeraHeapG1H1Sizing : AllStatic {
public:
  // End of a young or mixed pause, before G1 expands its heap by
  // `expand_bytes`: shrinks the heap to the limit if it is above it and
  // may; returns the expansion that keeps it within the limit.
  static size_t after_young_pause(size_t expand_bytes);
  // Remark, and the end of a full GC: *bytes is the resize G1 will make (an
  // expansion if *expand); bounded to keep the heap within the limit, or a
  // shrink to it. The live data the GC found sets the limit's floor.
  static void limit_resize(size_t* bytes, bool* expand);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1H1SIZING_HPP
