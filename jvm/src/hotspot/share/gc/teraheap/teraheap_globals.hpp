/*
 * The flags.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAP_GLOBALS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAP_GLOBALS_HPP

#include "runtime/globals_shared.hpp"

//
// Flags of TeraHeap. Values are checked together, with messages that name
// the fix, by TeraHeapArguments rather than by range() clauses.
//

#define GC_TERAHEAP_FLAGS(develop,                                          \
                          develop_pd,                                       \
                          product,                                          \
                          product_pd,                                       \
                          notproduct,                                       \
                          range,                                            \
                          constraint)                                       \
                                                                            \
  product(bool, EnableTeraHeap, false,                                      \
          "Add a second heap (H2), memory-mapped over a file, that holds "  \
          "object groups the application tags; the collector does not "     \
          "scan it. Uses the Parallel collector.")                          \
                                                                            \
  product(size_t, TeraHeapSize, 8 * G,                                      \
          "Size of H2 in bytes; a multiple of TeraHeapRegionSize.")         \
                                                                            \
  product(bool, TeraHeapPreallocate, true,                                  \
          "Allocate storage for all of H2's file at start, so that a file " \
          "system too small is an error at start. Off: the file is sparse " \
          "and takes storage a region at a time; a full file system is "    \
          "then found when a region opens, and reported. On a tmpfs off "   \
          "unless set: its storage is memory, counted at start.")           \
                                                                            \
  product(bool, TeraHeapHugePages, true,                                    \
          "Ask the kernel for huge pages on H2's mapping (madvise), so "    \
          "that it reads H2 back in 2 MB folios where the file system "     \
          "supports them: fewer, larger reads when H2 is paged in.")        \
                                                                            \
  product(ccstr, TeraHeapPath, NULL,                                        \
          "Where H2's backing file lives: a directory (an unnamed file is " \
          "made there and unlinked at once: it goes with the process) or a "\
          "file path (created, or reused if an earlier run made it for H2; "\
          "any other file is refused; mode 0600; kept after exit). "        \
          "Default: the system temp directory.")                            \
                                                                            \
  product(size_t, TeraHeapRegionSize, 32 * M,                               \
          "Size of an H2 region, the unit in which H2 is filled and freed. "\
          "A power of two between 1M and 1G.")                              \
                                                                            \
  product(uintx, TeraHeapHighThreshold, 85,                                 \
          "Percent of the old generation live after a full GC above which " \
          "tagged groups move to H2 without a move() hint.")                \
                                                                            \
  product(uintx, TeraHeapLowThreshold, 50,                                  \
          "Once moving without hints has started, percent of the old "      \
          "generation to bring live data down to.")                         \
                                                                            \
  product(bool, TeraHeapDynamicH1, false,                                   \
          "Size H1 at run time inside one DRAM budget shared with the "     \
          "page cache that serves H2 (-XX:TeraHeapDramLimit, else the "     \
          "memory cgroup's limit): H1 grows while GC time dominates and "   \
          "shrinks while waiting for H2's pages does. -Xmx stays the "      \
          "largest H1 may grow to. Left to its default, on under the "      \
          "Parallel collector with adaptive sizing whenever a budget is "   \
          "known and -Xms is below -Xmx; H1 then never grows past the "     \
          "heap the JVM would have had without it.")                        \
                                                                            \
  product(size_t, TeraHeapDramLimit, 0,                                     \
          "DRAM for H1 and H2's page cache together; giving it (not 0) "    \
          "turns on -XX:+TeraHeapDynamicH1. 0: the memory cgroup's limit.") \
                                                                            \
  product(uintx, TeraHeapEvacuationLiveThresholdPercent, 50,              \
          "A label one of whose tagged roots is no longer reached from "   \
          "outside H2, but whose regions live on because other data "       \
          "refers into them, is traced; it has its live objects copied to " \
          "fresh regions, and its regions freed, "                          \
          "when they hold less live data than this percent of their used " \
          "bytes. 0: never.")                                               \
                                                                            \
  product(bool, TeraHeapStressMove, false, DIAGNOSTIC,                      \
          "Testing: at every full GC also move a few old objects nobody "   \
          "tagged, each with what it reaches, so that any program runs "    \
          "with H2 in use.")                                               \
                                                                            \
  product(bool, TeraHeapStressEvacuationFailure, false, DIAGNOSTIC,         \
          "Testing: in every other evacuation, H2 runs out of room "        \
          "halfway through each label it copies, as when H2 fills up "     \
          "mid-copy, so that what was not copied stays where it is.")      \
                                                                            \
  product(bool, TeraHeapG1InProgress, false, EXPERIMENTAL,                 \
          "Let -XX:+EnableTeraHeap run with -XX:+UseG1GC while the port "   \
          "is built (docs/g1.md): full GCs move groups, young and mixed "   \
          "pauses read H2's cards, concurrent cycles free the H2 regions "  \
          "they do not reach.")                                            \
                                                                            \
  product(bool, TeraHeapG1MoveInPauses, true,                               \
          "With G1: a group advised to move leaves at the next young or "  \
          "mixed pause, as far as it lies in the collection set; an old "   \
          "root leaves at the mixed pauses after the next marking cycle, "  \
          "what stays behind at a full GC. Off: groups move at full GCs "   \
          "only.")

// end of GC_TERAHEAP_FLAGS

#endif // SHARE_GC_TERAHEAP_TERAHEAP_GLOBALS_HPP
