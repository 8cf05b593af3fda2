/*
 * The natives of the Java API, org.teraheap.TeraHeap.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPNATIVES_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPNATIVES_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// The natives of org.teraheap.TeraHeap, the Java API. That class ships in an
// application jar, not in java.base, so the VM resolves its registerNatives
// for any class loader (the stock lookup does so for the boot loader only).
// On a JVM without TeraHeap on, the lookup fails and the class falls back to
// doing nothing.
class TeraHeapNatives : AllStatic {
public:
  // The entry for `jni_name` if it is TeraHeap's registerNatives, else NULL.
  static address lookup(const char* jni_name);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPNATIVES_HPP
