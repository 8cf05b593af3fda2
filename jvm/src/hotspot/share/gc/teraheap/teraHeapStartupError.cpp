/*
 * What ends the VM at start: one line naming the problem and its fix.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "runtime/java.hpp"
#include "runtime/os.hpp"

#include <stdarg.h>

void TeraHeapStartupError::fail(const char* format, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, format);
  os::vsnprintf(message, sizeof(message), format, ap);
  va_end(ap);
  vm_exit_during_initialization(message);
}
