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
// wait from the kernel's pressure stall information and the process's major
// faults, which bound the part of it taken to be H2's (both also across the
// part of each full GC that reads H2), the JVM's memory outside H1 from
// /proc/self/status, H2's data from its regions. It keeps the target H1's
// committed size should stay within; each collector holds its own sizing to
// it, or to the floor for the live data the last GC found if that is higher
// (limit(); TeraHeapParallelH1Sizing, TeraHeapG1H1Sizing): it only lowers the
// sizes the collector asks for, and gives back what H1 has committed above
// that, which the page cache can then use. Growing is left to the
// collector, up to that. The target is soft: an allocation the
// collector cannot place otherwise still expands H1, so the policy never
// causes an OutOfMemoryError; the GC time that follows makes the target grow.
class TeraHeapH1Sizer : AllStatic {
  static TeraHeapH1SizePolicy _policy;
  static const char* _budget_source;
  static double   _last_time;        // of the last decision, seconds since start
  static double   _last_gc_seconds;
  // Seconds (or events) of some kind inside GC pauses, since start. The
  // collectors' timers count a GC's pause only at its end, after the decision
  // made in it: a decision takes what this GC added in the next interval, with
  // its pause.
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
  static GCSeconds _h2_seconds;      // TeraHeap's work in GCs
  static GCSeconds _gc_io_seconds;   // I/O wait while full GCs read H2
  static GCSeconds _gc_faults;       // major faults meanwhile, which go with that wait
  static double   _io_at_h2_work;    // I/O wait since boot when that began
  static uint64_t _faults_at_h2_work;
  static double   _last_io_seconds;
  static uint64_t _last_major_faults;
  static size_t   _h1_live;          // after the last GC that finds it
  static size_t   _other_memory;     // high-water mark
  static size_t   _h2_data;          // bytes in H2's regions in use, as the last GC left them
  static bool     _io_from_psi;      // else estimated from major faults
  static bool     _h1_max_from_budget;

public:
  // The DRAM budget that -XX:TeraHeapDramLimit or the memory cgroup gives;
  // 0 if neither does.
  static size_t budget_from_flags_or_cgroup(const char** source);

  // While the flags are checked: -Xmx was chosen as a share of the budget,
  // so it is no one's heap size, and H1 starts below it.
  static void note_h1_max_from_budget() { _h1_max_from_budget = true; }

  // After the heap is reserved.
  static void initialize();

  // TeraHeap's own work in a GC (moving groups, in full GCs and G1's pauses;
  // freeing regions): GC time that a larger H1 would not save.
  static void add_h2_seconds(double seconds);
  // A full GC begins and ends the part that reads H2 (marking, moves,
  // adjusting H2's references): the I/O wait in between is GC time that a
  // larger H1 would not save. h2_data: bytes of H2 holding objects after it.
  static void h2_work_begins();
  static void h2_work_ends(size_t h2_data);
  // H2's data changed outside a full GC (G1's pauses move, its Remark frees).
  static void set_h2_data(size_t bytes) { _h2_data = bytes; }

  // At the end of a GC, at most once a second: measures, and moves the
  // target.
  static void decide_if_due();
  static size_t target() { return _policy.target(); }
  // What the collectors hold H1 to: the target, raised to the floor as soon
  // as a full GC finds more live data (TeraHeapH1SizePolicy::limit).
  static size_t limit() { return _policy.limit(_h1_live, _other_memory); }
  // The live data of H1 as the last GC that finds it (a full GC, G1's Remark)
  // left it: the policy's floor.
  static size_t h1_live() { return _h1_live; }
  static void set_h1_live(size_t bytes) { _h1_live = bytes; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPH1SIZER_HPP
