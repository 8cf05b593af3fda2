/*
 * H1 sized at run time: what is measured, and the policy applied.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapEvents.hpp"
#include "gc/teraheap/teraHeapH1SizePolicy.hpp"
#include "gc/teraheap/teraHeapH1Sizer.hpp"
#include "gc/teraheap/teraHeapKernelCounters.hpp"
#include "gc/teraheap/teraheap_globals.hpp"
#include "logging/log.hpp"
#include "logging/logStream.hpp"
#include "memory/resourceArea.hpp"
#include "memory/universe.hpp"
#include "runtime/os.hpp"
#include "services/memoryManager.hpp"
#include "utilities/growableArray.hpp"

TeraHeapH1SizePolicy TeraHeapH1Sizer::_policy;
const char* TeraHeapH1Sizer::_budget_source = NULL;
double   TeraHeapH1Sizer::_last_time = 0;
double   TeraHeapH1Sizer::_last_gc_seconds = 0;
TeraHeapH1Sizer::GCSeconds TeraHeapH1Sizer::_h2_seconds;
TeraHeapH1Sizer::GCSeconds TeraHeapH1Sizer::_gc_io_seconds;
TeraHeapH1Sizer::GCSeconds TeraHeapH1Sizer::_gc_faults;
double   TeraHeapH1Sizer::_io_at_h2_work = 0;
uint64_t TeraHeapH1Sizer::_faults_at_h2_work = 0;
double   TeraHeapH1Sizer::_last_io_seconds = 0;
uint64_t TeraHeapH1Sizer::_last_major_faults = 0;
size_t   TeraHeapH1Sizer::_h1_live = 0;
size_t   TeraHeapH1Sizer::_other_memory = 0;
size_t   TeraHeapH1Sizer::_h2_data = 0;
bool     TeraHeapH1Sizer::_io_from_psi = false;
bool     TeraHeapH1Sizer::_h1_max_from_budget = false;

// Decisions need an interval long enough to average over a few GCs.
static const double decision_interval_seconds = 1.0;
// Without pressure stall information a major fault on H2 is taken to cost a
// read from a fast SSD.
static const double estimated_fault_seconds = 100e-6;

size_t TeraHeapH1Sizer::budget_from_flags_or_cgroup(const char** source) {
  const size_t cgroup_limit = TeraHeapKernelCounters::memory_limit();
  if (TeraHeapDramLimit != 0) {
    // A budget above the cgroup's limit would let H1 grow into the kernel's OOM killer.
    if (cgroup_limit > 0 && TeraHeapDramLimit > cgroup_limit) {
      *source = "the memory cgroup's limit, below -XX:TeraHeapDramLimit";
      return cgroup_limit;
    }
    *source = "-XX:TeraHeapDramLimit";
    return TeraHeapDramLimit;
  }
  if (cgroup_limit > 0) {
    *source = "the memory cgroup's limit";
    return cgroup_limit;
  }
  *source = NULL;
  return 0;
}

// I/O wait since boot: pressure stall information, else major faults (on a
// JVM without swap almost all of them H2's pages read back) at the cost of a
// read each. One source for the whole run: a failed read of the
// pressure file counts as no wait since the last one.
static double io_seconds_now(bool from_psi) {
  static double last_psi = 0;
  if (from_psi) {
    double io;
    if (TeraHeapKernelCounters::io_stall_seconds(&io)) {
      last_psi = io;
    }
    return last_psi;
  }
  return TeraHeapKernelCounters::major_faults() * estimated_fault_seconds;
}

// The collectors' accumulated pause times, as GarbageCollectorMXBean reports
// them; the GC running now is added at its end. G1's Remark and Cleanup
// pauses are in no memory manager's count in JDK 17, and not in this.
static double gc_seconds() {
  ResourceMark rm;
  GrowableArray<GCMemoryManager*> managers = Universe::heap()->memory_managers();
  jlong ms = 0;
  for (int i = 0; i < managers.length(); i++) {
    ms += managers.at(i)->gc_time_ms();
  }
  return ms / 1000.0;
}

static size_t h1_committed() {
  return TeraHeapCollector::current()->h1_committed_bytes();
}

// The JVM's anonymous resident memory outside H1: metaspace, code, threads,
// GC and TeraHeap tables, direct buffers. H1's committed size stands for its
// resident part; where H1 is not all touched yet that understates the rest,
// and the high-water mark the caller keeps makes up for it once it is.
static size_t other_memory_now() {
  const size_t anon = TeraHeapKernelCounters::anonymous_resident();
  const size_t h1 = h1_committed();
  return anon > h1 ? anon - h1 : 0;
}

void TeraHeapH1Sizer::initialize() {
  const size_t budget = budget_from_flags_or_cgroup(&_budget_source);
  assert(budget > 0, "checked by TeraHeapArguments");
  double io;
  _io_from_psi = TeraHeapKernelCounters::io_stall_seconds(&io);
  _last_io_seconds = io_seconds_now(_io_from_psi);
  _last_major_faults = TeraHeapKernelCounters::major_faults();
  _last_time = os::elapsedTime();
  // The generations do not exist yet: all anonymous memory is the rest's.
  _other_memory = TeraHeapKernelCounters::anonymous_resident();
  _policy.initialize(budget, MinHeapSize, MaxHeapSize, TeraHeapCollector::current()->h1_resize_granule(),
                     _other_memory, !_h1_max_from_budget);
  log_info(gc, teraheap, resize)("H1 sized at run time: DRAM budget " SIZE_FORMAT "M (%s) for H1 and H2's "
                                 "page cache; H1 within [" SIZE_FORMAT "M, " SIZE_FORMAT "M], starting at "
                                 SIZE_FORMAT "M; I/O wait from %s",
                                 budget / M, _budget_source, MinHeapSize / M, MaxHeapSize / M,
                                 _policy.target() / M,
                                 _io_from_psi ? "pressure stall information" : "major faults (no PSI)");
}

void TeraHeapH1Sizer::GCSeconds::add(double seconds) {
  const uint gc = Universe::heap()->total_collections();
  if (gc != _gc) {
    _gc = gc;
    _in_gc = 0;
  }
  _in_gc += seconds;
  _total += seconds;
}

double TeraHeapH1Sizer::GCSeconds::in_current_gc() const {
  return _gc == Universe::heap()->total_collections() ? _in_gc : 0;
}

double TeraHeapH1Sizer::GCSeconds::since_last_decision() {
  const double ended = _total - in_current_gc();
  const double since = ended - _last;
  _last = ended;
  return since;
}

void TeraHeapH1Sizer::add_h2_seconds(double seconds) {
  _h2_seconds.add(seconds);
}

void TeraHeapH1Sizer::h2_work_begins() {
  _io_at_h2_work = io_seconds_now(_io_from_psi);
  _faults_at_h2_work = TeraHeapKernelCounters::major_faults();
}

void TeraHeapH1Sizer::h2_work_ends(size_t h2_data) {
  _gc_io_seconds.add(MAX2(io_seconds_now(_io_from_psi) - _io_at_h2_work, 0.0));
  const uint64_t faults = TeraHeapKernelCounters::major_faults();
  _gc_faults.add(faults > _faults_at_h2_work ? (double)(faults - _faults_at_h2_work) : 0.0);
  _h2_data = h2_data;
}

void TeraHeapH1Sizer::decide_if_due() {
  const double now = os::elapsedTime();
  if (now - _last_time < decision_interval_seconds) {
    return;
  }
  const double gc = gc_seconds();
  // The I/O wait of a full GC running now goes with its pause, which the
  // collectors' timers count only at its end: into the next interval, and
  // the faults that bound it with it.
  const double io_total = io_seconds_now(_io_from_psi) - _gc_io_seconds.in_current_gc();
  const double io = MAX2(io_total - _last_io_seconds, 0.0);
  _last_io_seconds = MAX2(io_total, _last_io_seconds);
  const uint64_t faults_now = TeraHeapKernelCounters::major_faults();
  const uint64_t in_gc = (uint64_t)_gc_faults.in_current_gc();
  const uint64_t faults_total = MAX2(faults_now > in_gc ? faults_now - in_gc : 0, _last_major_faults);
  const uint64_t faults = faults_total - _last_major_faults;
  // Regions a collector gave back but has not uncommitted yet are resident
  // and not in H1's committed size: no sample while there are some.
  if (!TeraHeapCollector::current()->h1_uncommit_pending()) {
    _other_memory = MAX2(_other_memory, other_memory_now());
  }

  TeraHeapH1SizePolicy::Signals s;
  s.seconds = now - _last_time;
  s.gc_seconds = gc - _last_gc_seconds;
  s.h2_seconds = _h2_seconds.since_last_decision();
  s.gc_io_seconds = _gc_io_seconds.since_last_decision();
  s.io_stall_seconds = io;
  s.major_faults = (double)faults;
  s.h1_live = _h1_live;
  s.other_memory = _other_memory;
  s.h2_data = _h2_data;
  const TeraHeapH1SizePolicy::Decision d = _policy.decide(s);
  if (d.to != d.from) {
    TeraHeapEvents::h1_resized(d.from, d.to, TeraHeapH1SizePolicy::action_name(d.action));
  }

  // Changes at info, holds at debug: a long job holds thousands of times. So
  // are fits by less than 1% of the budget: the JVM's other memory creeps up
  // by a few MB a second while a program warms up, and the ceiling with it.
  LogTarget(Info, gc, teraheap, resize) changes;
  LogTarget(Debug, gc, teraheap, resize) holds;
  const bool small_fit = d.action == TeraHeapH1SizePolicy::fit && (d.from - d.to) * 100 < _policy.budget();
  const bool hold = d.action == TeraHeapH1SizePolicy::hold || small_fit;
  if (hold ? holds.is_enabled() : changes.is_enabled()) {
    LogStream ls(hold ? LogTargetHandle(holds) : LogTargetHandle(changes));
    ls.print_cr("H1 %s " SIZE_FORMAT "M -> " SIZE_FORMAT "M: GC %.1f%% (not counted: the larger of moves to H2 %.1f%% and I/O waits in GC %.1f%%), "
                "I/O wait %.1f%% (of %.1f%% measured, as far as " UINT64_FORMAT " major faults account for it) in %.1fs; committed " SIZE_FORMAT "M, live "
                SIZE_FORMAT "M, other memory " SIZE_FORMAT "M, H2 data " SIZE_FORMAT "M; floor " SIZE_FORMAT
                "M, ceiling " SIZE_FORMAT "M of " SIZE_FORMAT "M",
                TeraHeapH1SizePolicy::action_name(d.action), d.from / M, d.to / M,
                d.gc_share * 100, s.h2_seconds / s.seconds * 100, s.gc_io_seconds / s.seconds * 100,
                d.io_share * 100, s.io_stall_seconds / s.seconds * 100, faults, s.seconds,
                h1_committed() / M, _h1_live / M, _other_memory / M, _h2_data / M, d.floor / M, d.ceiling / M,
                _policy.budget() / M);
    if (d.undone) {
      ls.print_cr("Shrink undone: it cost more GC time than the I/O wait it set out to save; no shrink below "
                  SIZE_FORMAT "M for %.0fs", d.held_level / M, d.held_seconds);
    } else if (d.shrink_held) {
      // Held at the whole-H2 level, or by an undone shrink.
      ls.print_cr("Shrinks held off: none below " SIZE_FORMAT "M for %.0fs more",
                  (d.at_whole ? d.whole_level : d.held_level) / M, d.at_whole ? d.whole_hold_seconds : d.held_seconds);
    }
    if (d.at_whole) {
      switch (d.action) {
        case TeraHeapH1SizePolicy::shrink:
          ls.print_cr("Shrink stopped at " SIZE_FORMAT "M, where the page cache holds H2's data whole; none below "
                      "it for %.0fs", d.whole_level / M, d.whole_hold_seconds);
          break;
        case TeraHeapH1SizePolicy::grow:
          ls.print_cr("Grow stopped at " SIZE_FORMAT "M, where the page cache holds H2's data whole: GC time "
                      "below the I/O wait above it", d.whole_level / M);
          break;
        case TeraHeapH1SizePolicy::hold:
          break;
        default:
          ls.print_cr("H1 follows the level where the page cache holds H2's data whole");
      }
    }
  }
  _last_time = now;
  _last_gc_seconds = gc;
  _last_major_faults = faults_total;
}
