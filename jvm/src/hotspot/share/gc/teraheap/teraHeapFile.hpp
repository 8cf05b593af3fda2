/*
 * The file H2 is mapped over.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPFILE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPFILE_HPP

#include "memory/allocation.hpp"
#include "utilities/globalDefinitions.hpp"

// The file H2 is mapped over. Either an unnamed file in a directory, unlinked
// as soon as it is made so that it goes away with the process, or a file the
// user named, which stays. A named file is taken only if it is this user's,
// reached through no link, and empty or made for H2 before (TeraHeapFileMark);
// it is made readable by its owner only. Storage for all of H2 is allocated when the file is
// made (-XX:+TeraHeapPreallocate, the default), so a full file system is an
// error at start; without it the file is sparse. Either way a region's storage
// is allocated before the region is written (reserve_storage), so a full file
// system is never a SIGBUS. (os/linux: teraHeapFile_linux.cpp)
class TeraHeapFile : public CHeapObj<mtGC> {
  int   _fd;
  char* _path;     // what the logs call the file
  bool  _named;    // a user-named file, kept after exit

  TeraHeapFile(int fd, const char* path, bool named);

public:
  // Checks, before anything is reserved, that `path` (a directory, a file,
  // or NULL for the system temp directory) can hold `size` bytes. Exits the
  // VM with a one-line message naming the problem otherwise.
  static void check_path(const char* path, size_t size);

  // Makes the file and allocates `size` bytes of storage for it. Exits the VM
  // with a one-line message on failure.
  static TeraHeapFile* create(const char* path, size_t size);

  // Maps the file over [base, base + size), replacing the reservation there.
  void map_at(char* base, size_t size);

  // Gives the storage behind [offset, offset + len) back to the file system
  // (a freed region), and takes it back before the range is written again;
  // false when the file system has no room left.
  void release_storage(size_t offset, size_t len);
  bool reserve_storage(size_t offset, size_t len);

  // The device that holds the file, as a person would look for it: its
  // numbers, and the source, type and mount point of its file system.
  void describe_device(char* out, size_t len) const;

  const char* path() const { return _path; }
  bool is_named() const { return _named; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPFILE_HPP
