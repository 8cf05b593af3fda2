/*
 * The mark that tells a file made for H2 from any other file.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPFILEMARK_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPFILEMARK_HPP

#include "memory/allocation.hpp"
#include "utilities/globalDefinitions.hpp"

// A named H2 file ends in one page, past H2's own bytes, that starts with a
// line of text saying what the file is. The JVM empties a named file only if
// it is empty or ends in this mark: any other file is somebody's data.
// The mark trails H2 rather than leading it so that H2 keeps file offset 0
// (region offsets and huge-page alignment are unchanged); it is data rather
// than an extended attribute so that it works on every file system (tmpfs
// has no user attributes before Linux 6.6).
class TeraHeapFileMark : AllStatic {
public:
  static const size_t bytes = 4 * K;
  // What is read back to tell the mark: its first line.
  static const size_t line_bytes = 27;

  // Whether `line`, line_bytes long, is the mark's first line.
  static bool is_mark(const char* line);
  // Writes the mark into `page`, `bytes` long.
  static void fill(char* page);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPFILEMARK_HPP
