/*
 * What ends the VM at start: one line naming the problem and its fix.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPSTARTUPERROR_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPSTARTUPERROR_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// Every bad flag value or unusable file ends the VM at start with one line
// that names the flag and the fix, and no crash report. Sizes in those lines
// are written as a user types them in a flag (TH_SIZE_FORMAT).
class TeraHeapStartupError : AllStatic {
public:
  // Prints the line and exits the VM; for use during initialization.
  ATTRIBUTE_PRINTF(1, 2)
  static void fail(const char* format, ...);
};

// Sizes as a user types them in a flag: 8G, 512M, 2T, or bytes. (HotSpot's
// EXACTFMT stops at G and writes bytes as "B", which no flag accepts.)
inline size_t teraheap_size_value(size_t s) {
  const size_t units[] = { (size_t)K * G, G, M, K };
  for (size_t u : units) {
    if (s >= u && s % u == 0) {
      return s / u;
    }
  }
  return s;
}
inline const char* teraheap_size_unit(size_t s) {
  const size_t units[] = { (size_t)K * G, G, M, K };
  const char* const names[] = { "T", "G", "M", "K" };
  for (int i = 0; i < 4; i++) {
    if (s >= units[i] && s % units[i] == 0) {
      return names[i];
    }
  }
  return "";
}
#define TH_SIZE_FORMAT        SIZE_FORMAT "%s"
#define TH_SIZE_ARGS(s)       teraheap_size_value(s), teraheap_size_unit(s)

#endif // SHARE_GC_TERAHEAP_TERAHEAPSTARTUPERROR_HPP
