/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPH1SIZER_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPH1SIZER_HPP

#include "gc/teraheap/teraHeapH1SizePolicy.hpp"
#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// -XX:+TeraHeapDynamicH1: sizes H1 at run time inside one DRAM budget shared
// with H2's page cache (TeraHeapH1SizePolicy decides). It measures at the end
// of GCs, at most once a second: GC time from the collectors' timers, I/O
// wait from the kernel's pressure stall information, the JVM's memory outside
// H1 from /proc/self/status. The Parallel collector keeps sizing its
// generations as it always does; the sizer only lowers the sizes it asks for
// below the target, and a generation that shrinks uncommits its pages, which
// the page cache can then use. Growing is left to the collector, up to the
// target. The target is soft: an allocation the collector cannot place
// otherwise still expands the old generation, so the policy never causes an
// OutOfMemoryError; the GC time that follows makes the target grow.
class TeraHeapH1Sizer : AllStatic {
  static TeraHeapH1SizePolicy _policy;
  static const char* _budget_source;
  static double   _last_time;        // of the last decision, seconds since start
  static double   _last_gc_seconds;
  static double   _h2_seconds;       // TeraHeap's work in full GCs, since start
  static double   _h2_seconds_in_gc; // of which in the GC numbered _h2_gc
  static uint     _h2_gc;
  static double   _last_h2_seconds;
  static double   _last_io_seconds;
  static uint64_t _last_major_faults;
  static size_t   _h1_live;          // after the last full GC
  static size_t   _other_memory;     // high-water mark
  static bool     _io_from_psi;      // else estimated from major faults

  static void decide_if_due();
  static size_t young_limit();

public:
  // The DRAM budget that -XX:TeraHeapDramLimit or the memory cgroup gives;
  // 0 if neither does.
  static size_t budget_from_flags_or_cgroup(const char** source);

  // After the heap is reserved.
  static void initialize();

  // TeraHeap's own work in a full GC (moving groups, freeing regions): GC
  // time that a larger H1 would not save.
  static void add_h2_seconds(double seconds);

  // At the end of a full GC, before the old generation is resized: the free
  // space to leave it, at most what keeps H1 within the target.
  static size_t limit_old_free_space(size_t desired_free, size_t old_used);
  // At the end of every GC, before the young generation is resized: lowers
  // the eden and survivor sizes to ask for so that the young generation stays
  // within its share of the target. Shrinks the old generation to its share
  // first.
  static void limit_generations(size_t* eden, size_t* survivor);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPH1SIZER_HPP
