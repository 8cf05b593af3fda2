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

// A label in H2 is orphaned when the last full GC's marking from roots did
// not reach every one of its tagged roots (TeraHeapH2Roots), or when it has
// none: one of its groups may have been dropped. It is traced at the next
// full GC, then again after 1, 2, 4, ... up to 64 full GCs while it stays
// orphaned, and after 1 again once it was evacuated. Full GCs are counted
// by the caller.
class TeraHeapOrphans : AllStatic {
  struct Orphan {
    jlong label;
    uint  next_gc;    // the full GC that traces it
    uint  interval;   // full GCs between traces, doubling
  };
  static GrowableArrayCHeap<Orphan, mtGC>* _orphans;   // sorted by label

  static int compare(const Orphan& a, const Orphan& b);
  static Orphan* find(jlong label);

public:
  // An orphaned label is traced again after this many full GCs at most.
  static const uint longest_interval = 64;

  static void initialize();
  static bool is_empty() { return _orphans->is_empty(); }
  // Whether `label` is orphaned and due for a trace at full GC `gc`.
  static bool is_due(jlong label, uint gc);
  // `label` is traced (or looked at) at full GC `gc`: it is next due after
  // its interval, which doubles.
  static void back_off(jlong label, uint gc);
  // `label` was evacuated at full GC `gc`: other groups of it may be dropped
  // next, so it is due again at the next one.
  static void trace_soon(jlong label, uint gc);
  // After full GC `gc`: the labels of the regions in use that `held` (sorted)
  // does not list are the orphans; those already orphaned keep their schedule.
  static void update(const TeraHeapRegions* regions, GrowableArrayCHeap<jlong, mtGC>* held, uint gc);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPORPHANS_HPP
