/*
 * What the kernel counts for this process: memory limit, resident memory, I/O wait.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapKernelCounters.hpp"
#include "osContainer_linux.hpp"
#include "runtime/os.hpp"

#include <stdio.h>
#include <string.h>

size_t TeraHeapKernelCounters::memory_limit() {
  if (!OSContainer::is_containerized()) {
    return 0;
  }
  const jlong limit = OSContainer::memory_limit_in_bytes();
  return limit > 0 ? (size_t)limit : 0;
}

size_t TeraHeapKernelCounters::anonymous_resident() {
  os::Linux::meminfo_t info;
  return os::Linux::query_process_memory_info(&info) && info.rssanon > 0 ? (size_t)info.rssanon * K : 0;
}

// The memory cgroup's io.pressure on cgroup v2, else the whole machine's
// /proc/pressure/io. Found once: a process stays in its cgroup.
static const char* io_pressure_file() {
  static char path[256] = "";
  if (path[0] != '\0') {
    return path;
  }
  strcpy(path, "/proc/pressure/io");
  FILE* f = fopen("/proc/self/cgroup", "r");
  if (f == NULL) {
    return path;
  }
  char line[512];
  while (fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, "0::", 3) == 0) {
      line[strcspn(line, "\n")] = '\0';
      char candidate[sizeof(path)];
      jio_snprintf(candidate, sizeof(candidate), "/sys/fs/cgroup%s/io.pressure", line + 3);
      if (os::file_exists(candidate)) {
        strcpy(path, candidate);
      }
    }
  }
  fclose(f);
  return path;
}

bool TeraHeapKernelCounters::io_stall_seconds(double* seconds) {
  FILE* f = fopen(io_pressure_file(), "r");
  if (f == NULL) {
    return false;
  }
  // Microseconds some task waited.
  unsigned long long total = 0;
  const bool found = fscanf(f, "some avg10=%*f avg60=%*f avg300=%*f total=%llu", &total) == 1;
  fclose(f);
  *seconds = total / 1e6;
  return found;
}

// Field 12 of /proc/self/stat.
uint64_t TeraHeapKernelCounters::major_faults() {
  FILE* f = fopen("/proc/self/stat", "r");
  if (f == NULL) {
    return 0;
  }
  char buf[1024];
  const size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  // The command name may hold spaces; fields are counted after its ')'.
  const char* p = strrchr(buf, ')');
  unsigned long long faults = 0;
  if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %llu", &faults) != 1) {
    return 0;
  }
  return faults;
}
