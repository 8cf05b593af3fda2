/*
 * The flags checked as a whole, before anything is reserved.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPARGUMENTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPARGUMENTS_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// Checks the TeraHeap flags as a whole, before any memory is reserved, and
// makes the collector and compressed-oops choices that TeraHeap implies.
// Every bad value ends the VM at start with one line that names the flag and
// the fix; nothing here can crash.
class TeraHeapArguments : AllStatic {
public:
  // Called while the collector is being chosen: validates the flags, refuses
  // collectors other than Parallel and selects Parallel when none was named.
  static void initialize();

  // The part of the compressed-oops range left for H1 once H2 has taken its
  // share, given the whole range a heap may use. Zero turns compressed oops
  // off, which is right when H2 leaves too little for H1.
  static size_t h1_limit_for_compressed_oops(size_t limit);

  // Bytes H2 adds to the Java heap reservation.
  static size_t h2_reserved_size(size_t alignment);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPARGUMENTS_HPP
