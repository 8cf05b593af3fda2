/*
 * A clean exit when the storage behind H2 fails.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapStorageFault.hpp"
#include "runtime/os.hpp"
#include "utilities/globalDefinitions.hpp"

#include <unistd.h>

char TeraHeapStorageFault::_file[1024];
char TeraHeapStorageFault::_device[1024];

void TeraHeapStorageFault::initialize(const TeraHeapFile* file) {
  os::snprintf(_file, sizeof(_file), "%s", file->path());
  file->describe_device(_device, sizeof(_device));
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
