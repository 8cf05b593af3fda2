/*
 * The G1 regions that H2 refers into from cards a pause does not read.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1TARGETS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1TARGETS_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/bitMap.hpp"

class HeapRegion;

// Young and mixed pauses read only H2's dirty and youngergen cards; oldgen
// and summarized cards, whose referents were old, are read by full GCs. The
// Parallel collector moves an old object only in a full GC. G1 also moves
// them in mixed pauses, and in any pause frees a humongous array that nothing
// it tracks refers to. So the G1 regions such a card refers into stay out of
// both: a region joins this set whenever a collector leaves a card oldgen or
// summarized with a referent in it, and stays until the next full GC's
// adjust step builds the set anew, exactly.
class TeraHeapG1Targets : AllStatic {
  static CHeapBitMap* _regions;   // by G1 region index

public:
  static void initialize(uint g1_regions);

  // From any GC worker: an oldgen or summarized card refers to `obj`, in H1.
  static void add(oop obj);
  static bool contains(const HeapRegion* hr);
  // Before a full GC's adjust step adds what it finds.
  static void clear() { _regions->clear(); }
  static size_t count() { return _regions->count_one_bits(); }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1TARGETS_HPP
