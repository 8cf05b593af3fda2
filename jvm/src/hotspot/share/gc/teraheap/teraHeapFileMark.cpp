/*
 * The mark that tells a file made for H2 from any other file.
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapFileMark.hpp"

#include <string.h>
#include <unistd.h>

// The first line identifies the file; the second is for a person who finds it.
static const char MARK_LINE[] = "TeraHeap H2 file, format 1\n";
static const char MARK_NOTE[] =
    "The second heap of a JVM run with -XX:TeraHeapPath naming this file. Nothing in it outlives that "
    "JVM: once no JVM holds it, the file may be removed.\n";

bool TeraHeapFileMark::is_present(int fd, size_t length) {
  if (length < bytes) {
    return false;
  }
  char line[sizeof(MARK_LINE) - 1];
  const ssize_t n = ::pread(fd, line, sizeof(line), (off_t)(length - bytes));
  return n == (ssize_t)sizeof(line) && memcmp(line, MARK_LINE, sizeof(line)) == 0;
}

bool TeraHeapFileMark::write(int fd, size_t offset) {
  char page[bytes];
  memset(page, 0, sizeof(page));
  strcpy(page, MARK_LINE);
  strcat(page, MARK_NOTE);
  return ::pwrite(fd, page, sizeof(page), (off_t)offset) == (ssize_t)sizeof(page);
}
