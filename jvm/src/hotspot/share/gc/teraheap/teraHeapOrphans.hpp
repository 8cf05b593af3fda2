/*
 * Orphaned labels, and the full GC at which each is next traced.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPORPHANS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPORPHANS_HPP

#include "memory/allStatic.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapRegions;

// The labels in H2 that a full GC should trace, and when. A label is
// orphaned when the last full GC's marking from roots did not reach every
// one of its tagged roots (TeraHeapH2Roots), or when it has none: one of its
// groups may have been dropped. A label whose roots were all reached is
// written when the program stored into its regions since its last trace: it
// may have removed objects from a group it keeps. Either is traced at the
// next full GC, then again after 1, 2, 4, ... up to 64 full GCs while it
// stays so, and after 1 again once it was evacuated. A label keeps its
// schedule while it has regions. Full GCs are counted by the caller.
class TeraHeapOrphans : AllStatic {
  struct Orphan {
    jlong label;
    uint  next_gc;    // the full GC that traces it
    uint  interval;   // full GCs between traces, doubling
    bool  orphaned;
    bool  written;
  };
  static GrowableArrayCHeap<Orphan, mtGC>* _orphans;   // sorted by label

  static int compare(const Orphan& a, const Orphan& b);
  static Orphan* find(jlong label);

public:
  // A label is traced again after this many full GCs at most.
  static const uint longest_interval = 64;

  static void initialize();
  static bool is_empty() { return _orphans->is_empty(); }
  // Whether `label` is orphaned or written, and due for a trace at full GC `gc`.
  static bool is_due(jlong label, uint gc);
  // Whether `label` is orphaned (not only written).
  static bool is_orphaned(jlong label);
  // `label` is traced at full GC `gc`: it is next due after its interval,
  // which doubles.
  static void back_off(jlong label, uint gc);
  // `label` was evacuated at full GC `gc`: other groups of it may be dropped
  // next, so it is due again at the next one.
  static void trace_soon(jlong label, uint gc);
  // After full GC `gc`: the labels of the regions in use that `held` (sorted)
  // does not list are orphaned, those with a written region are written.
  static void update(const TeraHeapRegions* regions, GrowableArrayCHeap<jlong, mtGC>* held, uint gc);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPORPHANS_HPP
