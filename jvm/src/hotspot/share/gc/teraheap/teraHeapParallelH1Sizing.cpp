/*
 * The Parallel collector's generations held to the target of H1's run-time sizer.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/mutableSpace.hpp"
#include "gc/parallel/parallelScavengeHeap.hpp"
#include "gc/parallel/psOldGen.hpp"
#include "gc/parallel/psVirtualspace.hpp"
#include "gc/parallel/psYoungGen.hpp"
#include "gc/shared/genArguments.hpp"
#include "gc/teraheap/teraHeapH1SizePolicy.hpp"
#include "gc/teraheap/teraHeapH1Sizer.hpp"
#include "gc/teraheap/teraHeapParallelH1Sizing.hpp"
#include "utilities/align.hpp"

size_t TeraHeapParallelH1Sizing::_eden_taken = 0;

// The young generation's part of the target: its share of the heap's maximum,
// less what the old generation needs above the live data.
size_t TeraHeapParallelH1Sizing::young_limit() {
  PSYoungGen* young = ParallelScavengeHeap::young_gen();
  PSOldGen* old = ParallelScavengeHeap::old_gen();
  const double share = (double)young->max_gen_size() / (young->max_gen_size() + old->max_gen_size());
  const size_t limit = TeraHeapH1SizePolicy::young_part(TeraHeapH1Sizer::limit(), share,
                                                        TeraHeapH1Sizer::h1_live(), old->max_gen_size(),
                                                        GenAlignment);
  return MAX2(limit, young->min_gen_size());
}

size_t TeraHeapParallelH1Sizing::limit_old_free_space(size_t desired_free, size_t old_used) {
  TeraHeapH1Sizer::set_h1_live(old_used);  // right after compaction: what the full GC found live
  TeraHeapH1Sizer::decide_if_due();
  const size_t young = MIN2(ParallelScavengeHeap::young_gen()->virtual_space()->committed_size(), young_limit());
  const size_t h1_limit = TeraHeapH1Sizer::limit();
  const size_t old_room = h1_limit > young ? h1_limit - young : 0;
  const size_t free_room = old_room > old_used ? old_room - old_used : 0;
  return MIN2(desired_free, free_room);
}

void TeraHeapParallelH1Sizing::limit_generations(size_t* eden, size_t* survivor) {
  TeraHeapH1Sizer::decide_if_due();
  // The old generation only shrinks at full GCs on its own; between them (a
  // phase that scans H2 may run no full GC for minutes) hand back what it has
  // committed above its share of the target, down to what it uses.
  PSOldGen* old = ParallelScavengeHeap::old_gen();
  const size_t young = young_limit();
  const size_t h1_limit = TeraHeapH1Sizer::limit();
  const size_t old_room = align_up(MAX2(h1_limit > young ? h1_limit - young : 0, old->used_in_bytes()),
                                   GenAlignment);
  if (old->capacity_in_bytes() > old_room) {
    old->resize(old_room - old->used_in_bytes());
  }
  TeraHeapH1SizePolicy::settle_eden_taken(ParallelScavengeHeap::young_gen()->eden_space()->capacity_in_bytes(),
                                          &_eden_taken);
  TeraHeapH1SizePolicy::fit_young(young, SpaceAlignment, eden, survivor, &_eden_taken);
}
