/*
 * H1 sized at run time: what is measured, and the policy applied.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPH1SIZER_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPH1SIZER_HPP

#include "gc/teraheap/teraHeapH1SizePolicy.hpp"
#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// -XX:+TeraHeapDynamicH1: sizes H1 at run time inside one DRAM budget shared
// with H2's page cache (TeraHeapH1SizePolicy decides). It measures at the end
// of GCs, at most once a second: GC time from the collectors' timers, I/O
// wait from the kernel's pressure stall information (also across the part of
// each full GC that reads H2), the JVM's memory outside H1 from
// /proc/self/status, H2's data from its regions. The Parallel collector keeps sizing its
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
  // Seconds of some kind inside GC pauses, since start. The collectors'
  // timers count a GC's pause only at its end, after the decision made in it:
  // a decision takes what this GC added in the next interval, with its pause.
  class GCSeconds {
    double _total;
    double _in_gc;   // of which in the GC numbered _gc
    uint   _gc;
    double _last;    // of ended GCs, at the last decision
  public:
    GCSeconds() : _total(0), _in_gc(0), _gc(0), _last(0) {}
    void add(double seconds);
    // Since the last decision, in GCs that have ended.
    double since_last_decision();
    // In the GC running now, if any.
    double in_current_gc() const;
  };
  static GCSeconds _h2_seconds;      // TeraHeap's work in full GCs
  static GCSeconds _gc_io_seconds;   // I/O wait while full GCs read H2
  static double   _io_at_h2_work;    // I/O wait since boot when that began
  static double   _last_io_seconds;
  static uint64_t _last_major_faults; // for the log
  static size_t   _h1_live;          // after the last full GC
  static size_t   _other_memory;     // high-water mark
  static size_t   _h2_data;          // after the last full GC
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
  // A full GC begins and ends the part that reads H2 (marking, moves,
  // adjusting H2's references): the I/O wait in between is GC time that a
  // larger H1 would not save. h2_data: bytes of H2 holding objects after it.
  static void h2_work_begins();
  static void h2_work_ends(size_t h2_data);

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
