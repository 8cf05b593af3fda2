/*
 * The Parallel collector's generations held to the target of H1's run-time sizer.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPPARALLELH1SIZING_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPPARALLELH1SIZING_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// -XX:+TeraHeapDynamicH1 under the Parallel collector (TeraHeapH1Sizer
// decides the target). The collector keeps sizing its generations as it
// always does; these lower the sizes it asks for below the target, and a
// generation that shrinks uncommits its pages.
class TeraHeapParallelH1Sizing : AllStatic {
  // The largest eden the collector asked for while the limit cut it (0: none).
  static size_t _eden_taken;

  static size_t young_limit();

public:
  // At the end of a full GC, before the old generation is resized: the free
  // space to leave it, at most what keeps H1 within the target.
  static size_t limit_old_free_space(size_t desired_free, size_t old_used);
  // At the end of every GC, before the young generation is resized: lowers
  // the eden and survivor sizes to ask for so that the young generation stays
  // within its share of the target. Shrinks the old generation to its share
  // first.
  static void limit_generations(size_t* eden, size_t* survivor);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPPARALLELH1SIZING_HPP
