/* An nbdkit filter that adds a fixed latency, in microseconds, to every request that reaches the
 * device (read, write, flush, trim, zero): the round trip of a network between the NBD client and
 * server. nbdkit's own delay filter counts in milliseconds, and tc's netem is not in this kernel.
 *
 *   nbdkit --filter=./latency-filter.so PLUGIN ... latency-us=50
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <sys/prctl.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-filter.h>

static unsigned latency_us = 0;

static int latency_config(nbdkit_next_config *next, nbdkit_backend *nxdata, const char *key,
                          const char *value) {
  if (strcmp(key, "latency-us") == 0) {
    return nbdkit_parse_unsigned("latency-us", value, &latency_us);
  }
  return next(nxdata, key, value);
}

/* Sleeps until now + latency_us. The default timer slack of 50 us would swallow small latencies,
 * so the calling thread's is set to 1 ns first (once per thread). */
static void wait_latency(void) {
  static __thread int slack_set = 0;
  struct timespec until;
  if (latency_us == 0) {
    return;
  }
  if (!slack_set) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    slack_set = 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &until);
  until.tv_nsec += (long)latency_us * 1000;
  until.tv_sec += until.tv_nsec / 1000000000;
  until.tv_nsec %= 1000000000;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
  }
}

static int latency_pread(nbdkit_next *next, void *handle, void *buf, uint32_t count,
                         uint64_t offset, uint32_t flags, int *err) {
  wait_latency();
  return next->pread(next, buf, count, offset, flags, err);
}

static int latency_pwrite(nbdkit_next *next, void *handle, const void *buf, uint32_t count,
                          uint64_t offset, uint32_t flags, int *err) {
  wait_latency();
  return next->pwrite(next, buf, count, offset, flags, err);
}

static int latency_flush(nbdkit_next *next, void *handle, uint32_t flags, int *err) {
  wait_latency();
  return next->flush(next, flags, err);
}

static int latency_trim(nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
                        uint32_t flags, int *err) {
  wait_latency();
  return next->trim(next, count, offset, flags, err);
}

static int latency_zero(nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
                        uint32_t flags, int *err) {
  wait_latency();
  return next->zero(next, count, offset, flags, err);
}

static struct nbdkit_filter filter = {
  .name = "latency",
  .longname = "TeraHeap's fixed per-request latency filter",
  .config = latency_config,
  .config_help = "latency-us=<N>   Microseconds added to every request (default 0).",
  .pread = latency_pread,
  .pwrite = latency_pwrite,
  .flush = latency_flush,
  .trim = latency_trim,
  .zero = latency_zero,
};

NBDKIT_REGISTER_FILTER(filter)
