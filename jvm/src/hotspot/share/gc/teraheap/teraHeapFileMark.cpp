/*
 * The mark that tells a file made for H2 from any other file.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapFileMark.hpp"

#include <string.h>

// The first line identifies the file; the second is for a person who finds it.
static const char MARK_LINE[] = "TeraHeap H2 file, format 1\n";
static const char MARK_NOTE[] =
    "The second heap of a JVM run with -XX:TeraHeapPath naming this file. Nothing in it outlives that "
    "JVM: once no JVM holds it, the file may be removed.\n";

bool TeraHeapFileMark::is_mark(const char* line) {
  STATIC_ASSERT(sizeof(MARK_LINE) - 1 == line_bytes);
  return memcmp(line, MARK_LINE, line_bytes) == 0;
}

void TeraHeapFileMark::fill(char* page) {
  STATIC_ASSERT(sizeof(MARK_LINE) + sizeof(MARK_NOTE) <= bytes);
  memset(page, 0, bytes);
  strcpy(page, MARK_LINE);
  strcat(page, MARK_NOTE);
}
