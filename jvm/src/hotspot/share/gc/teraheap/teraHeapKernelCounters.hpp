/*
 * What the kernel counts for this process: memory limit, resident memory, I/O wait.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPKERNELCOUNTERS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPKERNELCOUNTERS_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// The kernel's figures that -XX:+TeraHeapDynamicH1 sizes H1 by. (os/linux:
// teraHeapKernelCounters_linux.cpp, from the memory cgroup, /proc and
// pressure stall information.)
class TeraHeapKernelCounters : AllStatic {
public:
  // The memory limit of the process's container, or 0 if it has none.
  static size_t memory_limit();
  // The process's anonymous resident memory, or 0 if unknown.
  static size_t anonymous_resident();
  // Seconds some task of the process's memory cgroup (or else of the
  // machine) waited for I/O since boot; false if the kernel does not say.
  static bool io_stall_seconds(double* seconds);
  // The process's major page faults so far, or 0 if unknown.
  static uint64_t major_faults();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPKERNELCOUNTERS_HPP
