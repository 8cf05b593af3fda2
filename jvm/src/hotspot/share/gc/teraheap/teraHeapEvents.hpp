/*
 * TeraHeap's events in JDK Flight Recorder.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPEVENTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPEVENTS_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"
#include "utilities/ticks.hpp"

// What TeraHeap did, as JFR events (jdk.TeraHeap*, metadata.xml): each call
// commits one event if a recording has it enabled, and costs a check if not.
// The -Xlog lines say the same in words.
class TeraHeapEvents : AllStatic {
  static volatile size_t _card_faults;   // card pages brought in since the last report
public:
  // Whether a recording wants moved(): collecting its figures costs a pass over the groups.
  static bool moves_wanted();
  // One label's groups moved in a full GC's move phase [start, end).
  static void moved(jlong label, size_t bytes, size_t objects, uint workers,
                    const Ticks& start, const Ticks& end);
  static void regions_freed(size_t regions, size_t bytes, size_t regions_in_use, size_t used_bytes);
  static void h2_full(size_t capacity, size_t used_bytes, bool file_system_full);
  static void evacuated(jlong label, size_t live_bytes, size_t regions_freed);
  static void h1_resized(size_t from, size_t to, const char* reason);

  // Card pages mapped in on first touch count as they come; a full GC reports
  // at its end the sum since the previous report.
  static void card_page_faulted();
  static void report_card_faults();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPEVENTS_HPP
