/*
 * The file H2 is mapped over.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapFileMark.hpp"
#include "gc/teraheap/teraHeapStartupError.hpp"
#include "logging/log.hpp"
#include "runtime/globals_extension.hpp"
#include "runtime/os.hpp"
#include "services/memTracker.hpp"
#include "utilities/globalDefinitions.hpp"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

// Whether the file behind `fd`, `length` bytes long, ends in the mark.
static bool has_mark(int fd, size_t length) {
  if (length < TeraHeapFileMark::bytes) {
    return false;
  }
  char line[TeraHeapFileMark::line_bytes];
  const ssize_t n = ::pread(fd, line, sizeof(line), (off_t)(length - TeraHeapFileMark::bytes));
  return n == (ssize_t)sizeof(line) && TeraHeapFileMark::is_mark(line);
}

// Writes the mark at `offset`, the end of H2's bytes; false on an I/O error.
static bool write_mark(int fd, size_t offset) {
  char page[TeraHeapFileMark::bytes];
  TeraHeapFileMark::fill(page);
  return ::pwrite(fd, page, sizeof(page), (off_t)offset) == (ssize_t)sizeof(page);
}

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

// A link on the way to H2's file that someone else owns may have been planted
// to steer the JVM onto a file of theirs choosing: refused. The user's own
// links and root's are followed, as the kernel does.
static void check_links(const char* path) {
  char prefix[JVM_MAXPATHLEN];
  const size_t len = strlen(path);
  for (size_t end = 1; end <= len; end++) {
    if ((end < len && path[end] != '/') || path[end - 1] == '/') {
      continue;
    }
    memcpy(prefix, path, end);
    prefix[end] = '\0';
    struct stat st;
    if (::lstat(prefix, &st) == 0 && S_ISLNK(st.st_mode) && st.st_uid != 0 && st.st_uid != geteuid()) {
      TeraHeapStartupError::fail("-XX:TeraHeapPath=%s goes through %s, a symbolic link owned by another user "
                                 "(uid %u) that could steer H2 onto a file of theirs; give the real path",
                                 path, prefix, (unsigned)st.st_uid);
    }
  }
}

// Anyone may rename or replace a file in a directory every user can write,
// unless the directory has the sticky bit (as /tmp has).
static void check_directory(const char* path, const char* dir) {
  struct stat st;
  if (os::stat(dir, &st) == 0 && (st.st_mode & S_IWOTH) != 0 && (st.st_mode & S_ISVTX) == 0) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s: directory %s is writable by every user and has no sticky bit, "
                               "so anyone could replace H2's file there; give a directory that only this user can "
                               "write, or set its sticky bit (chmod +t)", path, dir);
  }
}

static TeraHeapPathInfo inspect(const char* path) {
  TeraHeapPathInfo info;
  info.named = false;
  info.existing_bytes = 0;
  if (strlen(path) == 0 || strlen(path) >= JVM_MAXPATHLEN - 32) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath='%s' is not a usable path: give a directory or a file path", path);
  }
  check_links(path);

  struct stat st;
  if (::lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (os::stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s is a symbolic link: H2's file is never opened through a link, "
                               "which would let whoever made it choose the file H2 overwrites; give the file's "
                               "real path or a directory", path);
  }
  if (os::stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      os::snprintf(info.dir, sizeof(info.dir), "%s", path);
    } else if (S_ISREG(st.st_mode)) {
      info.named = true;
      info.existing_bytes = (size_t)st.st_blocks * 512;
      parent_of(path, info.dir, sizeof(info.dir));
    } else {
      TeraHeapStartupError::fail("-XX:TeraHeapPath=%s is neither a directory nor a regular file: "
                                 "give a directory or a file path on a local file system", path);
    }
  } else if (errno == ENOENT) {
    info.named = true;
    parent_of(path, info.dir, sizeof(info.dir));
    struct stat dst;
    if (os::stat(info.dir, &dst) != 0 || !S_ISDIR(dst.st_mode)) {
      TeraHeapStartupError::fail("-XX:TeraHeapPath=%s: directory %s does not exist; "
                                 "create it or give an existing directory", path, info.dir);
    }
  } else {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s cannot be read (%s): give a directory or a file path "
                               "that this user can write", path, os::strerror(errno));
  }
  check_directory(path, info.dir);
  return info;
}

void TeraHeapFile::check_path(const char* path, size_t size) {
  const char* where = effective_path(path);
  TeraHeapPathInfo info = inspect(where);

  if (access(info.dir, W_OK | X_OK) != 0 ||
      (info.named && access(where, F_OK) == 0 && access(where, R_OK | W_OK) != 0)) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s is not writable (%s): give a directory or a file path "
                               "that this user can write", where, os::strerror(errno));
  }

  struct statvfs fs;
  if (statvfs(info.dir, &fs) == 0) {
    const size_t free_bytes = (size_t)fs.f_bavail * fs.f_frsize + info.existing_bytes;
    if (size > free_bytes) {
      TeraHeapStartupError::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " does not fit in %s (" SIZE_FORMAT "M free): "
                                 "lower -XX:TeraHeapSize or point -XX:TeraHeapPath at a larger file system",
                                 TH_SIZE_ARGS(size), info.dir, free_bytes / M);
    }
  }
}

TeraHeapFile::TeraHeapFile(int fd, const char* path, bool named) :
  _fd(fd), _path(os::strdup(path, mtGC)), _named(named) {}

static int create_unnamed(const char* dir, char* path, size_t len) {
  os::snprintf(path, len, "%s/teraheap-h2-XXXXXX", dir);
  // A new file of this user's, mode 0600, that no one else can have made.
  const int fd = mkostemp(path, O_CLOEXEC);
  if (fd < 0) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s: cannot create H2's file there (%s); "
                               "give a directory that this user can write", dir, os::strerror(errno));
  }
  // Unlinked at once: the storage goes back to the file system when the process ends, however it ends.
  unlink(path);
  return fd;
}

// Opens a file the user named and makes it H2's: only a regular file of this
// user's with no other name, empty or made for H2 before, and only to be read
// by this user. It is emptied: nothing of an earlier run is read back.
static int open_named(const char* path) {
  const int fd = os::open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
  if (fd < 0) {
    if (errno == ELOOP) {
      TeraHeapStartupError::fail("-XX:TeraHeapPath=%s is a symbolic link: H2's file is never opened through a "
                                 "link; give the file's real path or a directory", path);
    }
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s: cannot open H2's file (%s); "
                               "give a file path that this user can write", path, os::strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s is not a regular file: give a directory or a file path", path);
  }
  if (st.st_uid != geteuid()) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s belongs to another user (uid %u): H2 only takes a file of "
                               "this user's (uid %u); give a path of your own or a directory",
                               path, (unsigned)st.st_uid, (unsigned)geteuid());
  }
  if (st.st_nlink > 1) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s has %u names (hard links), and another name may be somebody's "
                               "data: give a file of its own or a directory", path, (unsigned)st.st_nlink);
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s is in use by another JVM: give each JVM its own H2 file "
                               "or a directory", path);
  }
  if (st.st_size > 0 && !has_mark(fd, (size_t)st.st_size)) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s holds " SIZE_FORMAT "%s of data that TeraHeap did not write, "
                               "and H2 never overwrites such a file: name a new file or a directory, or remove "
                               "this file yourself if its data is not needed", path,
                               byte_size_in_proper_unit((size_t)st.st_size), proper_unit_for_byte_size((size_t)st.st_size));
  }
  // The heap holds the program's objects: no one else may read them, whatever the file's mode was.
  if ((st.st_mode & 07777) != 0600 && fchmod(fd, 0600) != 0) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s cannot be made readable by this user only (%s): "
                               "give a file path on a file system with Unix permissions, or a directory",
                               path, os::strerror(errno));
  }
  // An earlier run's heap is not read back: start from an empty file.
  if (ftruncate(fd, 0) != 0) {
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s cannot be truncated (%s)", path, os::strerror(errno));
  }
  return fd;
}

// A tmpfs: its storage is the machine's memory.
static bool is_memory_file_system(int fd) {
  struct statfs sfs;
  const long tmpfs_magic = 0x01021994;
  return fstatfs(fd, &sfs) == 0 && (long)sfs.f_type == tmpfs_magic;
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
  // A named file ends in the mark that lets the next run tell it from somebody's data.
  const size_t length = size + (info.named ? TeraHeapFileMark::bytes : 0);
  bool preallocate = TeraHeapPreallocate;
  if (preallocate && FLAG_IS_DEFAULT(TeraHeapPreallocate) && is_memory_file_system(fd)) {
    // A RAM disk's storage is memory, charged to the JVM's memory cgroup as it is
    // allocated: preallocated, all of H2 would count at start, and a container's limit
    // smaller than H2 would kill the JVM there without a word. Its room was checked
    // (check_path).
    preallocate = false;
    log_info(gc, init)("TeraHeap: H2's file is on a RAM disk (tmpfs): its memory is taken as H2 fills, "
                       "not at start (-XX:+TeraHeapPreallocate takes it all at start)");
  }
  int err = preallocate ? posix_fallocate(fd, 0, (off_t)length)
                        : (ftruncate(fd, (off_t)length) == 0 ? 0 : errno);
  if (err == 0 && info.named && !write_mark(fd, size)) {
    err = errno;
  }
  if (err != 0) {
    if (info.named) {
      ftruncate(fd, 0);
    }
    ::close(fd);
    if (err == ENOSPC) {
      TeraHeapStartupError::fail("-XX:TeraHeapSize=" TH_SIZE_FORMAT " does not fit in %s: the file system is full; "
                                 "lower -XX:TeraHeapSize or point -XX:TeraHeapPath at a larger file system",
                                 TH_SIZE_ARGS(size), info.dir);
    }
    TeraHeapStartupError::fail("-XX:TeraHeapPath=%s: cannot allocate " TH_SIZE_FORMAT " for H2 (%s); "
                               "give a path on a local file system with room for -XX:TeraHeapSize",
                               where, TH_SIZE_ARGS(size), os::strerror(err));
  }
  return new TeraHeapFile(fd, file_path, info.named);
}

void TeraHeapFile::map_at(char* base, size_t size) {
  char* addr = (char*)::mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, _fd, 0);
  if (addr == MAP_FAILED || addr != base) {
    TeraHeapStartupError::fail("cannot map H2's file %s (%s): check -XX:TeraHeapPath and -XX:TeraHeapSize",
                               _path, os::strerror(errno));
  }
  // H2 is read back through page faults. On a mapping advised for huge pages, the kernel
  // reads a file in 2 MB folios where its file system supports them (XFS since Linux 5.18,
  // ext4 since 6.16): fewer, larger reads. Where it does not, the advice changes nothing, so its
  // result is not checked.
  if (TeraHeapHugePages) {
    ::madvise(base, size, MADV_HUGEPAGE);
  }
  // A core dump leaves H2 out: it can be terabytes, and the kernel would read every page of it
  // from the file to write it (under a coredump_filter that takes shared file mappings).
  ::madvise(base, size, MADV_DONTDUMP);
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

void TeraHeapFile::describe_device(char* out, size_t len) const {
  struct stat st;
  if (fstat(_fd, &st) != 0) {
    os::snprintf(out, len, "device unknown");
    return;
  }
  const dev_t dev = st.st_dev;
  os::snprintf(out, len, "device %u:%u", major(dev), minor(dev));
  FILE* f = fopen("/proc/self/mountinfo", "r");
  if (f == NULL) {
    return;
  }
  char line[4096];
  while (fgets(line, sizeof(line), f) != NULL) {
    // id parent major:minor root mount-point options [optional...] - type source super-options
    unsigned maj, min;
    char mount_point[1024];
    if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, mount_point) != 3 ||
        maj != major(dev) || min != minor(dev)) {
      continue;
    }
    const char* rest = strstr(line, " - ");
    char type[64], source[1024];
    if (rest != NULL && sscanf(rest, " - %63s %1023s", type, source) == 2) {
      os::snprintf(out, len, "device %u:%u, %s (%s) mounted on %s", maj, min, source, type, mount_point);
    }
    break;
  }
  fclose(f);
}
