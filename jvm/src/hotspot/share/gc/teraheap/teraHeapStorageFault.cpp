/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapStorageFault.hpp"
#include "runtime/os.hpp"
#include "utilities/globalDefinitions.hpp"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

char TeraHeapStorageFault::_file[1024];
char TeraHeapStorageFault::_device[1024];

// The mount that holds device `dev`, from /proc/self/mountinfo: its source
// (/dev/loop0, a server's export), file system type and mount point.
static void describe_device(dev_t dev, char* out, size_t len) {
  os::snprintf(out, len, "device %u:%u", major(dev), minor(dev));
  FILE* f = fopen("/proc/self/mountinfo", "r");
  if (f == NULL) {
    return;
  }
  char line[4096];
  while (fgets(line, sizeof(line), f) != NULL) {
    // id parent major:minor root mount-point options [optional...] - type source super-options
    unsigned maj, min;
    char mount_point[1024];
    if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, mount_point) != 3 ||
        maj != major(dev) || min != minor(dev)) {
      continue;
    }
    const char* rest = strstr(line, " - ");
    char type[64], source[1024];
    if (rest != NULL && sscanf(rest, " - %63s %1023s", type, source) == 2) {
      os::snprintf(out, len, "device %u:%u, %s (%s) mounted on %s", maj, min, source, type, mount_point);
    }
    break;
  }
  fclose(f);
}

void TeraHeapStorageFault::initialize(const TeraHeapFile* file) {
  os::snprintf(_file, sizeof(_file), "%s", file->path());
  struct stat st;
  if (fstat(file->fd(), &st) == 0) {
    describe_device(st.st_dev, _device, sizeof(_device));
  } else {
    os::snprintf(_device, sizeof(_device), "device unknown");
  }
}

void TeraHeapStorageFault::exit_if_in_h2(const void* addr) {
  if (!TeraHeapAddressSpace::contains(addr)) {
    return;
  }
  // In a signal handler: format into a static buffer and write(2) it.
  static char message[3072];
  const size_t offset = pointer_delta(addr, TeraHeapAddressSpace::range().start(), 1);
  const int n = os::snprintf(message, sizeof(message),
      "Error: TeraHeap: H2 cannot be read or written at byte " SIZE_FORMAT " of %s (%s): the storage "
      "behind H2 failed or went away (I/O error, device or server gone, file truncated) and H2's "
      "objects are lost; check that device, then run the job again\n",
      offset, _file, _device);
  if (n > 0) {
    ssize_t ignored = ::write(2, message, MIN2((size_t)n, sizeof(message) - 1));
    (void)ignored;
  }
  ::_exit(1);
}
