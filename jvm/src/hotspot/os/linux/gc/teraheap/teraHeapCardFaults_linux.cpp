/*
 * The card table's pages noted as the kernel maps them in.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCardFaults.hpp"
#include "gc/teraheap/teraHeapEvents.hpp"
#include "logging/log.hpp"
#include "memory/allocation.hpp"
#include "runtime/atomic.hpp"
#include "runtime/nonJavaThread.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__NR_userfaultfd) && __has_include(<linux/userfaultfd.h>)
#include <linux/userfaultfd.h>
#define TERAHEAP_HAS_USERFAULTFD 1
#endif

TeraHeapCardFaultThread* TeraHeapCardFaults::_thread = NULL;

#ifdef TERAHEAP_HAS_USERFAULTFD

// Serves the faults: notes the page, then maps in a page of zeros (the dirty
// card value: the page then reads dirty until a collector has scanned it, as
// a page the barrier faulted in always has).
class TeraHeapCardFaultThread : public NonJavaThread {
  const int _fd;
  char* const _from;
  char* const _to;
  const TeraHeapCardFaults::Noted _noted;
  char* _zeros;
  volatile bool _serving;

  void serve(char* page);
  void give_up(const char* what, int error);

public:
  TeraHeapCardFaultThread(int fd, char* from, char* to, TeraHeapCardFaults::Noted noted) :
    _fd(fd), _from(from), _to(to), _noted(noted),
    _zeros(NEW_C_HEAP_ARRAY(char, os::vm_page_size(), mtGC)), _serving(true) {
    memset(_zeros, 0, os::vm_page_size());
  }
  bool serving() const { return Atomic::load_acquire(&_serving); }

  void run() override;
  char* name() const override { return (char*)"TeraHeap Card Faults"; }
  void print_on(outputStream* st) const override {
    st->print("\"%s\" ", name());
    Thread::print_on(st);
    st->cr();
  }
};

void TeraHeapCardFaultThread::give_up(const char* what, int error) {
  // Said before the kernel maps any page unnoticed, so that no collection
  // trusts the bits once one can be missing.
  Atomic::release_store_fence(&_serving, false);
  // The kernel serves the table's faults from now on; nothing waits on us.
  struct uffdio_range range;
  range.start = (uintptr_t)_from;
  range.len = pointer_delta(_to, _from, 1);
  ::ioctl(_fd, UFFDIO_UNREGISTER, &range);
  log_info(gc, teraheap)("userfaultfd stopped serving H2's card table (%s: %s): collections read "
                         "/proc/self/pagemap instead", what, os::strerror(error));
}

void TeraHeapCardFaultThread::serve(char* page) {
  _noted(page);   // before the faulting thread can store into the page
  for (;;) {
    struct uffdio_copy copy;
    copy.dst = (uintptr_t)page;
    copy.src = (uintptr_t)_zeros;
    copy.len = os::vm_page_size();
    copy.mode = 0;
    copy.copy = 0;
    if (::ioctl(_fd, UFFDIO_COPY, &copy) == 0) {
      TeraHeapEvents::card_page_faulted();
      return;
    }
    if (errno == EEXIST) {
      // Mapped in meanwhile (two threads faulted on it, and it was counted
      // then): wake whoever waits.
      struct uffdio_range range;
      range.start = (uintptr_t)page;
      range.len = os::vm_page_size();
      ::ioctl(_fd, UFFDIO_WAKE, &range);
      return;
    }
    if (errno != EAGAIN && errno != EINTR) {
      give_up("UFFDIO_COPY", errno);
      return;
    }
  }
}

void TeraHeapCardFaultThread::run() {
  while (serving()) {
    struct uffd_msg msg;
    const ssize_t n = ::read(_fd, &msg, sizeof(msg));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
      continue;
    }
    if (n != (ssize_t)sizeof(msg)) {
      give_up("read", n < 0 ? errno : EIO);
      return;
    }
    if (msg.event == UFFD_EVENT_PAGEFAULT) {
      serve(align_down((char*)(uintptr_t)msg.arg.pagefault.address, os::vm_page_size()));
    }
  }
}

static int open_userfaultfd() {
  // User-mode faults are all the barrier and the collectors make, and the
  // only kind an unprivileged process may ask for (kernel 5.11 on).
#ifdef UFFD_USER_MODE_ONLY
  const int fd = (int)::syscall(__NR_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
  if (fd >= 0) {
    return fd;
  }
#endif
  return (int)::syscall(__NR_userfaultfd, O_CLOEXEC);
}

bool TeraHeapCardFaults::start(char* from, char* to, Noted noted) {
  assert(is_aligned(from, os::vm_page_size()) && is_aligned(to, os::vm_page_size()), "whole pages");
  const int fd = open_userfaultfd();
  if (fd < 0) {
    log_info(gc, teraheap)("userfaultfd is not available (%s): collections read /proc/self/pagemap to find "
                           "the written pages of H2's card table", os::strerror(errno));
    return false;
  }
  struct uffdio_api api;
  api.api = UFFD_API;
  api.features = 0;
  api.ioctls = 0;
  struct uffdio_register reg;
  reg.range.start = (uintptr_t)from;
  reg.range.len = pointer_delta(to, from, 1);
  reg.mode = UFFDIO_REGISTER_MODE_MISSING;
  reg.ioctls = 0;
  if (::ioctl(fd, UFFDIO_API, &api) != 0 || ::ioctl(fd, UFFDIO_REGISTER, &reg) != 0 ||
      (reg.ioctls & ((__u64)1 << _UFFDIO_COPY)) == 0) {
    log_info(gc, teraheap)("userfaultfd cannot watch H2's card table (%s): collections read "
                           "/proc/self/pagemap to find its written pages", os::strerror(errno));
    ::close(fd);
    return false;
  }
  TeraHeapCardFaultThread* thread = new TeraHeapCardFaultThread(fd, from, to, noted);
  if (!os::create_thread(thread, os::cgc_thread)) {
    struct uffdio_range range = reg.range;
    ::ioctl(fd, UFFDIO_UNREGISTER, &range);
    ::close(fd);
    log_info(gc, teraheap)("no thread for userfaultfd: collections read /proc/self/pagemap to find "
                           "the written pages of H2's card table");
    return false;
  }
  os::start_thread(thread);
  _thread = thread;
  log_debug(gc, teraheap)("H2's card table: written pages noted as the kernel maps them in (userfaultfd)");
  return true;
}

bool TeraHeapCardFaults::serving() {
  return _thread != NULL && _thread->serving();
}

void TeraHeapCardFaults::threads_do(ThreadClosure* tc) {
  if (_thread != NULL) {
    tc->do_thread(_thread);
  }
}

#else // !TERAHEAP_HAS_USERFAULTFD

bool TeraHeapCardFaults::start(char* from, char* to, Noted noted) {
  return false;
}

bool TeraHeapCardFaults::serving() {
  return false;
}

void TeraHeapCardFaults::threads_do(ThreadClosure* tc) {}

#endif // TERAHEAP_HAS_USERFAULTFD
