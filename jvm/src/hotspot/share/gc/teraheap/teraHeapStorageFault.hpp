/*
 * A clean exit when the storage behind H2 fails.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPSTORAGEFAULT_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPSTORAGEFAULT_HPP

#include "memory/allStatic.hpp"

class TeraHeapFile;

// What happens when the storage behind H2 fails under a running JVM: a disk
// error, a remote block device whose server died or whose link went down
// (once the file system gives up on it), a file truncated by hand. The kernel
// then answers an access to H2's mapping with SIGBUS, from any thread, Java
// code and GC alike. H2's data is gone, so the VM cannot go on; what it can
// do is say so in one line that names H2's file and the device under it, and
// exit with status 1, instead of writing a crash report that blames the code
// that happened to touch H2.
class TeraHeapStorageFault : AllStatic {
  static char _file[1024];     // the file and its device, described at start
  static char _device[1024];

public:
  // Describes H2's file and device now: the signal handler cannot look them up.
  static void initialize(const TeraHeapFile* file);

  // Called by the VM's signal handler for a SIGBUS it does not otherwise
  // handle. Returns if `addr` is not in H2; otherwise reports and exits.
  static void exit_if_in_h2(const void* addr);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPSTORAGEFAULT_HPP
