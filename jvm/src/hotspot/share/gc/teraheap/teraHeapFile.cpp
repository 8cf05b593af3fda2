/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/teraheap/teraHeapArguments.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "runtime/os.hpp"
#include "services/memTracker.hpp"
#include "utilities/globalDefinitions.hpp"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

// What TeraHeapPath names, once looked at.
struct TeraHeapPathInfo {
  char dir[JVM_MAXPATHLEN];   // the directory the file is (or will be) in
  bool named;                 // the path names a file rather than a directory
  size_t existing_bytes;      // storage a named file already holds
};

static const char* effective_path(const char* path) {
  return path != NULL ? path : os::get_temp_directory();
}

static void parent_of(const char* path, char* dir, size_t len) {
  os::snprintf(dir, len, "%s", path);
  char* slash = strrchr(dir, '/');
  if (slash == NULL) {
    os::snprintf(dir, len, ".");
  } else if (slash == dir) {
    dir[1] = '\0';
  } else {
    *slash = '\0';
  }
}

static TeraHeapPathInfo inspect(const char* path) {
  TeraHeapPathInfo info;
  info.named = false;
  info.existing_bytes = 0;
  if (strlen(path) == 0 || strlen(path) >= JVM_MAXPATHLEN - 32) {
    TeraHeapArguments::fail("-XX:TeraHeapPath='%s' is not a usable path: give a directory or a file path", path);
  }

  struct stat st;
  if (os::stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      os::snprintf(info.dir, sizeof(info.dir), "%s", path);
    } else if (S_ISREG(st.st_mode)) {
      info.named = true;
      info.existing_bytes = (size_t)st.st_blocks * 512;
      parent_of(path, info.dir, sizeof(info.dir));
    } else {
      TeraHeapArguments::fail("-XX:TeraHeapPath=%s is neither a directory nor a regular file: "
                              "give a directory or a file path on a local file system", path);
    }
  } else if (errno == ENOENT) {
    info.named = true;
    parent_of(path, info.dir, sizeof(info.dir));
    struct stat dst;
    if (os::stat(info.dir, &dst) != 0 || !S_ISDIR(dst.st_mode)) {
      TeraHeapArguments::fail("-XX:TeraHeapPath=%s: directory %s does not exist; "
                              "create it or give an existing directory", path, info.dir);
    }
  } else {
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s cannot be read (%s): give a directory or a file path "
                            "that this user can write", path, os::strerror(errno));
  }
  return info;
}

void TeraHeapFile::check_path(const char* path, size_t size) {
  const char* where = effective_path(path);
  TeraHeapPathInfo info = inspect(where);

  if (access(info.dir, W_OK | X_OK) != 0 ||
      (info.named && access(where, F_OK) == 0 && access(where, R_OK | W_OK) != 0)) {
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s is not writable (%s): give a directory or a file path "
                            "that this user can write", where, os::strerror(errno));
  }

  struct statvfs fs;
  if (statvfs(info.dir, &fs) == 0) {
    const size_t free_bytes = (size_t)fs.f_bavail * fs.f_frsize + info.existing_bytes;
    if (size > free_bytes) {
      TeraHeapArguments::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " does not fit in %s (" SIZE_FORMAT "M free): "
                              "lower -XX:TeraHeapSize or point -XX:TeraHeapPath at a larger file system",
                              TH_SIZE_ARGS(size), info.dir, free_bytes / M);
    }
  }
}

TeraHeapFile::TeraHeapFile(int fd, const char* path, bool named) :
  _fd(fd), _path(os::strdup(path, mtGC)), _named(named) {}

static int create_unnamed(const char* dir, char* path, size_t len) {
  os::snprintf(path, len, "%s/teraheap-h2-XXXXXX", dir);
  const int fd = mkstemp(path);
  if (fd < 0) {
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s: cannot create H2's file there (%s); "
                            "give a directory that this user can write", dir, os::strerror(errno));
  }
  // Unlinked at once: the storage goes back to the file system when the process ends, however it ends.
  unlink(path);
  return fd;
}

static int open_named(const char* path) {
  const int fd = os::open(path, O_RDWR | O_CREAT, 0600);
  if (fd < 0) {
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s: cannot open H2's file (%s); "
                            "give a file path that this user can write", path, os::strerror(errno));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s is in use by another JVM: give each JVM its own H2 file "
                            "or a directory", path);
  }
  // Whatever an earlier run left there is not ours to read: start from an empty file.
  if (ftruncate(fd, 0) != 0) {
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s cannot be truncated (%s)", path, os::strerror(errno));
  }
  return fd;
}

TeraHeapFile* TeraHeapFile::create(const char* path, size_t size) {
  const char* where = effective_path(path);
  TeraHeapPathInfo info = inspect(where);

  char file_path[JVM_MAXPATHLEN];
  int fd;
  if (info.named) {
    os::snprintf(file_path, sizeof(file_path), "%s", where);
    fd = open_named(file_path);
  } else {
    fd = create_unnamed(info.dir, file_path, sizeof(file_path));
  }

  // Without preallocation the file only gets its length: storage comes a region at a time.
  const int err = TeraHeapPreallocate ? posix_fallocate(fd, 0, (off_t)size)
                                      : (ftruncate(fd, (off_t)size) == 0 ? 0 : errno);
  if (err != 0) {
    if (info.named) {
      ftruncate(fd, 0);
    }
    ::close(fd);
    if (err == ENOSPC) {
      TeraHeapArguments::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " does not fit in %s: the file system is full; "
                              "lower -XX:TeraHeapSize or point -XX:TeraHeapPath at a larger file system",
                              TH_SIZE_ARGS(size), info.dir);
    }
    TeraHeapArguments::fail("-XX:TeraHeapPath=%s: cannot allocate " TH_SIZE_FORMAT " for H2 (%s); "
                            "give a path on a local file system with room for -XX:TeraHeapSize",
                            where, TH_SIZE_ARGS(size), os::strerror(err));
  }
  return new TeraHeapFile(fd, file_path, info.named);
}

void TeraHeapFile::map_at(char* base, size_t size) {
  char* addr = (char*)::mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, _fd, 0);
  if (addr == MAP_FAILED || addr != base) {
    TeraHeapArguments::fail("cannot map H2's file %s (%s): check -XX:TeraHeapPath and -XX:TeraHeapSize",
                            _path, os::strerror(errno));
  }
  // H2 is read back through page faults. On a mapping advised for huge pages, the kernel
  // reads a file in 2 MB folios where its file system supports them (XFS since Linux 5.18,
  // ext4 since 6.16): fewer, larger reads. Where it does not, the advice changes nothing, so its
  // result is not checked.
  if (TeraHeapHugePages) {
    ::madvise(base, size, MADV_HUGEPAGE);
  }
  // The reservation was recorded by the heap; tell NMT these pages are now backed.
  MemTracker::record_virtual_memory_commit(base, size, CALLER_PC);
}

void TeraHeapFile::release_storage(size_t offset, size_t len) {
  // Not every file system can punch holes; the storage then simply stays allocated.
  ::fallocate(_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)len);
}

bool TeraHeapFile::reserve_storage(size_t offset, size_t len) {
  return posix_fallocate(_fd, (off_t)offset, (off_t)len) == 0;
}
