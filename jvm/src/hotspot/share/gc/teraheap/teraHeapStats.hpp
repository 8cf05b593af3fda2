/*
 * A snapshot of H2's state, for the Java API.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPSTATS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPSTATS_HPP

#include "utilities/globalDefinitions.hpp"

// A snapshot of H2's state and of what TeraHeap has done so far; what
// org.teraheap.TeraHeap.stats() returns, field by field.
struct TeraHeapStats {
  size_t capacity_bytes;   // size of H2
  size_t used_bytes;       // bytes of H2 holding objects
  size_t regions_in_use;   // regions holding objects
  size_t regions_freed;    // regions freed, whole, since start
  size_t bytes_moved;      // bytes moved from H1 to H2 since start
  size_t objects_moved;    // objects moved from H1 to H2 since start
  size_t tagged_roots;     // roots tagged and still alive in H1
  size_t movable_labels;   // labels advised to move at the next full GC
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPSTATS_HPP
