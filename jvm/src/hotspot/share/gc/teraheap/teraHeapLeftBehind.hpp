/*
 * The parts of groups that a pause moved in part, left in H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPLEFTBEHIND_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPLEFTBEHIND_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapMover;
class TeraHeapRegions;

// A young or mixed pause moves what of a group lies in its collection set;
// what lies outside (old objects, humongous ones G1 cannot reclaim in the
// pause) stays in H1, referred to from the copies' fields in H2. Their root
// has left H1, so no tagged root leads a full GC to them: the labels are
// noted here instead, and the next full GC moves, from every field of those
// labels' H2 regions that refers into H1, what the field leads to, as if the
// group had moved whole. Objects the program stored into the group since
// move with it. VM thread, at safepoints.
class TeraHeapLeftBehind : AllStatic {
  static GrowableArrayCHeap<jlong, mtGC>* _labels;   // noted since the last full GC

public:
  static void note(jlong label);
  static bool any();
  // In a full GC, after marking: moves with `mover` from the noted labels'
  // fields. The labels are forgotten unless H2 filled up.
  static void move(TeraHeapRegions* regions, TeraHeapMover* mover);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPLEFTBEHIND_HPP
