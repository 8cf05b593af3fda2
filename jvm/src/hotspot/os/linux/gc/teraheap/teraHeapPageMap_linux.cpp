/*
 * The kernel's pages under H2's side tables: mapped, queried, given back.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapPageMap.hpp"
#include "runtime/os.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

// /proc/self/pagemap: one 64-bit entry per virtual page.
static const uint64_t pagemap_present = (uint64_t)1 << 63;
static const uint64_t pagemap_swapped = (uint64_t)1 << 62;

int TeraHeapPageMap::_fd = -1;

bool TeraHeapPageMap::map_table(char* at, size_t bytes) {
  if (::mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0) == MAP_FAILED) {
    return false;
  }
  ::madvise(at, bytes, MADV_NOHUGEPAGE);
  return true;
}

bool TeraHeapPageMap::initialize() {
  _fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  uint64_t entry;
  if (_fd >= 0 && ::pread(_fd, &entry, sizeof(entry), 0) != (ssize_t)sizeof(entry)) {
    ::close(_fd);
    _fd = -1;
  }
  return _fd >= 0;
}

void TeraHeapPageMap::resident(const char* first, size_t n, bool* backed) {
  assert(n <= max_pages, "one read");
  const size_t vpage = (uintptr_t)first / os::vm_page_size();
  uint64_t entries[max_pages];
  const ssize_t got = ::pread(_fd, entries, n * sizeof(uint64_t), (off_t)(vpage * sizeof(uint64_t)));
  for (size_t i = 0; i < n; i++) {
    backed[i] = got < (ssize_t)((i + 1) * sizeof(uint64_t)) ||
                (entries[i] & (pagemap_present | pagemap_swapped)) != 0;
  }
}

bool TeraHeapPageMap::discard(char* page) {
  return ::madvise(page, os::vm_page_size(), MADV_DONTNEED) == 0;
}
