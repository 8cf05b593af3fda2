/*
 * Loops over a file mapped shared, as a program scans H2, and prints each pass's time. Before the
 * loop it applies one way of keeping the file's first KEPT MB in the page cache across passes.
 * Run by study.py under a memory cgroup; its docstring says what the study measures.
 *
 *   loop FILE SIZE_MB KEPT_MB PASSES STRATEGY
 *
 * Strategies:
 *   lru          nothing: the kernel's own reclaim (the mapping is advised for huge pages, as H2's is)
 *   sequential   the rest of the file advised MADV_SEQUENTIAL (its pages then carry no recency)
 *   touch        as sequential, and a thread touches one byte per 2 MB of the first KEPT MB every
 *                100 ms, so those pages are referenced twice and activated
 *   lock         the first KEPT MB locked as they are faulted in (mlock2, MLOCK_ONFAULT)
 *   evict-behind the rest of the file evicted (MADV_PAGEOUT) 64 MB behind the scan: the best a
 *                policy that knew where the program reads could do
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

#define MB (1024UL * 1024UL)
#define PAGE 4096UL

static char* kept_base;
static size_t kept_bytes;

static void* toucher(void* unused) {
  (void)unused;
  for (;;) {
    for (size_t at = 0; at < kept_bytes; at += 2 * MB) {
      (void)*(volatile char*)(kept_base + at);
    }
    usleep(100 * 1000);
  }
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: loop FILE SIZE_MB KEPT_MB PASSES STRATEGY\n");
    return 2;
  }
  const size_t size = strtoul(argv[2], NULL, 10) * MB;
  const size_t kept = strtoul(argv[3], NULL, 10) * MB;
  const int passes = atoi(argv[4]);
  const char* strategy = argv[5];
  if (kept > size) {
    fprintf(stderr, "KEPT_MB (%s) is larger than SIZE_MB (%s)\n", argv[3], argv[2]);
    return 2;
  }
  const int fd = open(argv[1], O_RDONLY);
  if (fd < 0) {
    perror(argv[1]);
    return 2;
  }
  char* base = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    perror("mmap");
    return 2;
  }
  madvise(base, size, MADV_HUGEPAGE);
  const int evict_behind = strcmp(strategy, "evict-behind") == 0;
  if (strcmp(strategy, "sequential") == 0 || strcmp(strategy, "touch") == 0) {
    madvise(base + kept, size - kept, MADV_SEQUENTIAL);
  }
  if (strcmp(strategy, "touch") == 0) {
    kept_base = base;
    kept_bytes = kept;
    pthread_t t;
    pthread_create(&t, NULL, toucher, NULL);
  } else if (strcmp(strategy, "lock") == 0) {
    if (syscall(SYS_mlock2, base, kept, MLOCK_ONFAULT) != 0) {
      perror("mlock2");
      return 2;
    }
  } else if (!evict_behind && strcmp(strategy, "lru") != 0 && strcmp(strategy, "sequential") != 0) {
    fprintf(stderr, "unknown strategy %s\n", strategy);
    return 2;
  }
  unsigned long sum = 0;
  for (int pass = 0; pass < passes; pass++) {
    const double start = now();
    for (size_t at = 0; at < size; at += PAGE) {
      sum += (unsigned char)base[at];
      if (evict_behind && at >= kept + 128 * MB && at % (64 * MB) == 0) {
        madvise(base + at - 128 * MB, 64 * MB, MADV_PAGEOUT);
      }
    }
    printf("PASS %d seconds=%.3f\n", pass, now() - start);
  }
  printf("SUM %lu\n", sum);
  return 0;
}
