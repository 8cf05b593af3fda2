/*
 * The kernel's pages under H2's side tables: mapped, queried, given back.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPPAGEMAP_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPPAGEMAP_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// The kernel's pages under H2's side tables (TeraHeapTablePages): a table
// mapped whole, whose pages take memory only once written; which of its pages
// hold memory (present, or swapped out); dropping a page so that its next
// touch maps in a fresh page of zeros. (os/linux: teraHeapPageMap_linux.cpp,
// from mmap, madvise and /proc/self/pagemap.)
class TeraHeapPageMap : AllStatic {
  static int _fd;   // the kernel's page map, -1 if it cannot be read

public:
  // The most pages one call to resident() answers for.
  static const size_t max_pages = 2048;

  // Maps [at, at + bytes), page aligned, readable and writable, with no swap
  // reserved and no huge pages (one would back 512 pages of a table at once).
  // False on failure, with errno set.
  static bool map_table(char* at, size_t bytes);

  // Whether resident() can be answered here; false if the kernel's page map
  // cannot be read.
  static bool initialize();
  // For `n` pages (at most max_pages) from the page at `first`: whether the
  // kernel backs each. A page the kernel gives no answer for counts as backed.
  static void resident(const char* first, size_t n, bool* backed);
  // Gives `page` back to the kernel; its next touch reads zeros. False if the
  // kernel refused, and the page keeps its contents.
  static bool discard(char* page);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPPAGEMAP_HPP
