/*
 * A G1 marking task's read of the H2 regions that marking found live.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1MARKINGSCAN_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1MARKINGSCAN_HPP

#include "memory/allStatic.hpp"

class G1CMTask;
class TeraHeapRegions;

// Reads, on a marking task, the regions TeraHeapG1Marking queued: each
// region's dependencies become live, and what its classes, summaries and
// non-clean cards refer to is marked (in H1) or reached (another H2 region),
// with G1's own greying, so that the task traces it as any marked object.
// What an oldgen or summarized card refers to in H1 joins the set of G1
// regions H2 refers into that a marking cycle builds (TeraHeapG1Targets).
// Cards are only read: the program runs, and its stores mark cards.
class TeraHeapG1MarkingScan : AllStatic {
public:
  // Drains the task, reads a queued region, and again, until none is left
  // or the task must stop (to yield, or the cycle is abandoned); a region
  // left half read is put back. After G1's own work in each marking step.
  static void read_regions(TeraHeapRegions* regions, G1CMTask* task);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1MARKINGSCAN_HPP
