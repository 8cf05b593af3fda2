/*
 * A preload library that makes userfaultfd(2) unavailable to a process.
 *
 * For measurements: TeraHeap's JVM then notes the written pages of H2's card table from
 * /proc/self/pagemap instead (it says so in -Xlog:gc+teraheap), and a run shows what the
 * userfaultfd registration costs. Used in docs/results/giraph.md.
 *
 *   gcc -O2 -shared -fPIC -o build/no-userfaultfd.so benchmarks/tools/no-userfaultfd.c -ldl
 *   LD_PRELOAD=$PWD/build/no-userfaultfd.so benchmarks/giraph/bench.py run sssp thjvm ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long syscall(long number, ...) {
  static long (*real)(long, ...) = 0;
  va_list ap;
  va_start(ap, number);
  long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long),
       d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
  va_end(ap);
  if (number == SYS_userfaultfd) {
    errno = ENOSYS;
    return -1;
  }
  if (!real) {
    real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  }
  return real(number, a, b, c, d, e, f);
}
