/*
 * The flags checked as a whole, before anything is reserved.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/teraheap/teraHeapArguments.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapH1SizePolicy.hpp"
#include "gc/teraheap/teraHeapH1Sizer.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "logging/log.hpp"
#include "runtime/arguments.hpp"
#include "runtime/globals_extension.hpp"
#include "runtime/java.hpp"
#include "utilities/align.hpp"
#include "utilities/formatBuffer.hpp"
#include "utilities/powerOfTwo.hpp"

static const size_t min_region_size = 1 * M;
static const size_t max_region_size = 1 * G;
// Half of the 47-bit user address space: room for H1, metadata and the rest.
static const size_t max_h2_size = 64 * K * G;

static const char* other_collector_flag() {
  if (UseSerialGC) {
    return "-XX:+UseSerialGC";
  }
  if (UseG1GC) {
    return "-XX:+UseG1GC";
  }
  if (UseZGC) {
    return "-XX:+UseZGC";
  }
  if (UseShenandoahGC) {
    return "-XX:+UseShenandoahGC";
  }
  if (UseEpsilonGC) {
    return "-XX:+UseEpsilonGC";
  }
  if (!FLAG_IS_DEFAULT(UseParallelGC) && !UseParallelGC) {
    return "-XX:-UseParallelGC";
  }
  return NULL;
}

static void select_parallel_collector() {
  const char* other = other_collector_flag();
  if (TeraHeapG1InProgress && UseG1GC) {
    return;
  }
  if (other != NULL) {
    TeraHeapStartupError::fail("-XX:+EnableTeraHeap works with the Parallel collector only: "
                               "remove %s (TeraHeap selects -XX:+UseParallelGC itself)%s", other,
                               UseG1GC ? "; G1 is experimental: -XX:+UnlockExperimentalVMOptions "
                                         "-XX:+TeraHeapG1InProgress" : "");
  }
  if (FLAG_IS_DEFAULT(UseParallelGC)) {
    FLAG_SET_ERGO(UseParallelGC, true);
  }
}

static void check_incompatible_flags() {
  if (AllocateHeapAt != NULL) {
    TeraHeapStartupError::fail("-XX:+EnableTeraHeap cannot be combined with -XX:AllocateHeapAt: "
                               "H2 is the file-backed heap and H1 stays in DRAM; remove -XX:AllocateHeapAt");
  }
  if (UseLargePages && !UseTransparentHugePages) {
    TeraHeapStartupError::fail("-XX:+EnableTeraHeap cannot map its file inside a hugetlbfs heap: "
                               "remove -XX:+UseLargePages or use -XX:+UseTransparentHugePages");
  }
}

static void check_sizes() {
  if (!is_power_of_2(TeraHeapRegionSize) ||
      TeraHeapRegionSize < min_region_size || TeraHeapRegionSize > max_region_size) {
    TeraHeapStartupError::fail("-XX:TeraHeapRegionSize=" TH_SIZE_FORMAT " is invalid: "
                               "use a power of two between 1M and 1G, e.g. -XX:TeraHeapRegionSize=32M",
                               TH_SIZE_ARGS(TeraHeapRegionSize));
  }
  if (TeraHeapSize == 0) {
    TeraHeapStartupError::fail("-XX:TeraHeapSize=0 is invalid: give H2 a size that is a multiple of "
                               "-XX:TeraHeapRegionSize=" TH_SIZE_FORMAT ", e.g. -XX:TeraHeapSize=16G",
                               TH_SIZE_ARGS(TeraHeapRegionSize));
  }
  if (TeraHeapSize > max_h2_size) {
    TeraHeapStartupError::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " is too large: the most H2 can address is "
                               TH_SIZE_FORMAT, TH_SIZE_ARGS(TeraHeapSize), TH_SIZE_ARGS(max_h2_size));
  }
  if (!is_aligned(TeraHeapSize, TeraHeapRegionSize)) {
    const size_t below = align_down(TeraHeapSize, TeraHeapRegionSize);
    const size_t above = align_up(TeraHeapSize, TeraHeapRegionSize);
    if (below == 0) {
      TeraHeapStartupError::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " is smaller than one region "
                                 "(-XX:TeraHeapRegionSize=" TH_SIZE_FORMAT "): use -XX:TeraHeapSize=" TH_SIZE_FORMAT
                                 " or a smaller region size",
                                 TH_SIZE_ARGS(TeraHeapSize), TH_SIZE_ARGS(TeraHeapRegionSize), TH_SIZE_ARGS(above));
    }
    TeraHeapStartupError::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " is not a multiple of -XX:TeraHeapRegionSize="
                               TH_SIZE_FORMAT ": use " TH_SIZE_FORMAT " or " TH_SIZE_FORMAT,
                               TH_SIZE_ARGS(TeraHeapSize), TH_SIZE_ARGS(TeraHeapRegionSize),
                               TH_SIZE_ARGS(below), TH_SIZE_ARGS(above));
  }
}

static void check_thresholds() {
  if (TeraHeapHighThreshold == 0 || TeraHeapHighThreshold > 100) {
    TeraHeapStartupError::fail("-XX:TeraHeapHighThreshold=" UINTX_FORMAT " is invalid: "
                               "give a percent between 1 and 100, e.g. 85", TeraHeapHighThreshold);
  }
  if (TeraHeapEvacuationLiveThresholdPercent > 100) {
    TeraHeapStartupError::fail("-XX:TeraHeapEvacuationLiveThresholdPercent=" UINTX_FORMAT " is invalid: "
                               "give a percent between 0 (never evacuate) and 100, e.g. 50",
                               TeraHeapEvacuationLiveThresholdPercent);
  }
  if (TeraHeapLowThreshold >= TeraHeapHighThreshold) {
    TeraHeapStartupError::fail("-XX:TeraHeapLowThreshold=" UINTX_FORMAT " must be below "
                               "-XX:TeraHeapHighThreshold=" UINTX_FORMAT ", e.g. 50 and 85",
                               TeraHeapLowThreshold, TeraHeapHighThreshold);
  }
}

static const size_t min_dram_budget = 64 * M;

// -Xms (or -XX:MinHeapSize) at or above -Xmx leaves H1 no room to move.
static bool h1_size_fixed_by_flags() {
  return !FLAG_IS_DEFAULT(MaxHeapSize) &&
         ((!FLAG_IS_DEFAULT(InitialHeapSize) && InitialHeapSize >= MaxHeapSize) ||
          (!FLAG_IS_DEFAULT(MinHeapSize) && MinHeapSize >= MaxHeapSize));
}

// Flags other than -Xmx by which the user sized the heap.
static bool heap_sized_by_ram_flags() {
  return !FLAG_IS_DEFAULT(MaxRAM) || !FLAG_IS_DEFAULT(MaxRAMPercentage) ||
         !FLAG_IS_DEFAULT(MaxRAMFraction) || !FLAG_IS_DEFAULT(ErgoHeapSizeLimit);
}

// Why dynamic H1, left to its default, stays off; NULL: it is on. G1 gets it
// only by name: its port is experimental, and the default was measured under
// Parallel alone.
static const char* why_dynamic_h1_stays_off(size_t budget) {
  if (budget == 0) {
    return "no memory cgroup limit (or -XX:-UseContainerSupport) and no -XX:TeraHeapDramLimit";
  }
  if (budget < min_dram_budget) {
    return "the memory cgroup's limit is under 64M";
  }
  if (!UseParallelGC) {
    return "not the Parallel collector (-XX:+TeraHeapDynamicH1 turns it on under G1)";
  }
  if (!UseAdaptiveSizePolicy) {
    return "-XX:-UseAdaptiveSizePolicy";
  }
  if (h1_size_fixed_by_flags()) {
    return "-Xms is not below -Xmx";
  }
  return NULL;
}

// Dynamic H1 is asked for by -XX:+TeraHeapDynamicH1 or by a budget given
// with -XX:TeraHeapDramLimit; then a setting it cannot work with is refused,
// and, with the heap's size left to ergonomics, H1 may take the budget less
// the page cache's reserve. Left to its default, it is on wherever it can
// act, and H1 never grows past the heap the JVM would have had without it:
// the cgroup may hold other processes the budget does not see.
static void check_dynamic_h1() {
  const char* source = NULL;
  const size_t budget = TeraHeapH1Sizer::budget_from_flags_or_cgroup(&source);
  const bool asked = !FLAG_IS_DEFAULT(TeraHeapDynamicH1) || TeraHeapDramLimit != 0;
  if (!asked) {
    const char* off = why_dynamic_h1_stays_off(budget);
    if (off != NULL) {
      log_info(gc, teraheap, resize)("Dynamic H1 off: %s", off);
      return;
    }
    FLAG_SET_ERGO(TeraHeapDynamicH1, true);
    return;
  }
  if (FLAG_IS_DEFAULT(TeraHeapDynamicH1)) {
    FLAG_SET_ERGO(TeraHeapDynamicH1, true);
  }
  if (!TeraHeapDynamicH1) {
    return;
  }
  if (budget == 0) {
    TeraHeapStartupError::fail("-XX:+TeraHeapDynamicH1 needs a DRAM budget to divide: run the JVM in a memory "
                               "cgroup with a limit, or give -XX:TeraHeapDramLimit=<size>");
  }
  if (budget < min_dram_budget) {
    TeraHeapStartupError::fail("the DRAM budget of -XX:+TeraHeapDynamicH1 (" TH_SIZE_FORMAT ", %s) is too small "
                               "to divide: give at least " TH_SIZE_FORMAT,
                               TH_SIZE_ARGS(budget), source, TH_SIZE_ARGS(min_dram_budget));
  }
  if (UseParallelGC && !UseAdaptiveSizePolicy) {
    TeraHeapStartupError::fail("-XX:+TeraHeapDynamicH1 steers the Parallel collector's adaptive sizing: "
                               "remove -XX:-UseAdaptiveSizePolicy");
  }
  if (h1_size_fixed_by_flags()) {
    TeraHeapStartupError::fail("-XX:+TeraHeapDynamicH1 resizes H1 between -Xms and -Xmx, and -Xms is not below "
                               "-Xmx: remove -Xms (or give a smaller one)");
  }
  if (FLAG_IS_DEFAULT(MaxHeapSize) && !heap_sized_by_ram_flags()) {
    const size_t h1_max = (size_t)(budget * (1 - TeraHeapH1SizePolicy::reserve_fraction));
    FLAG_SET_ERGO(MaxHeapSize, align_down(h1_max, M));
    TeraHeapH1Sizer::note_h1_max_from_budget();
  }
}

void TeraHeapArguments::initialize() {
  assert(EnableTeraHeap, "only called with TeraHeap on");
  select_parallel_collector();
  check_incompatible_flags();
  check_sizes();
  check_thresholds();
  check_dynamic_h1();
  // A sparse file needs no room at start.
  TeraHeapFile::check_path(TeraHeapPath, TeraHeapPreallocate ? TeraHeapSize : 0);
}

size_t TeraHeapArguments::h2_reserved_size(size_t alignment) {
  return EnableTeraHeap ? align_up(TeraHeapSize, alignment) : 0;
}

size_t TeraHeapArguments::h1_limit_for_compressed_oops(size_t limit) {
  const size_t h2 = h2_reserved_size(Arguments::conservative_max_heap_alignment());
  if (h2 >= limit) {
    return 0;
  }
  const size_t left = limit - h2;
  // When H1's size is left to ergonomics, a large H2 would squeeze H1 to fit
  // the range; give compressed oops up instead once H2 takes more than half.
  if (FLAG_IS_DEFAULT(MaxHeapSize) && left < limit / 2) {
    return 0;
  }
  return left;
}
