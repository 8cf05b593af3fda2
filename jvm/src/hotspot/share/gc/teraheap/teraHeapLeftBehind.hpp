/*
 * The parts of groups that a pause moved in part, left in H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPLEFTBEHIND_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPLEFTBEHIND_HPP

#include "memory/allStatic.hpp"
#include "utilities/bitMap.hpp"
#include "utilities/globalDefinitions.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapMoveShared;
class TeraHeapRegions;
class TeraHeapSingletons;

// A young or mixed pause moves what of a group lies in its collection set;
// what lies outside (old objects, humongous ones G1 cannot reclaim in the
// pause) stays in H1, referred to from the copies' fields in H2. Their root
// has left H1, so no tagged root leads a collector to them: the labels are
// noted here instead. VM thread, at safepoints.
//
// A noted label is also pending: until a third marking cycle begins, mixed
// pauses read its regions' oldgen cards, so that the G1 regions those cards
// refer into may be collected (TeraHeapG1Targets), and move, from every
// field of its regions that refers into H1, what the field leads to in their
// collection set. The next full GC moves what is left, as if the group had
// moved whole; objects the program stored into the group since move with it.
class TeraHeapLeftBehind : AllStatic {
  struct Pending {
    jlong label;
    uint  cycles;   // marking cycles begun since it was noted
  };
  static GrowableArrayCHeap<jlong, mtGC>*   _labels;    // noted since the last full GC
  static GrowableArrayCHeap<Pending, mtGC>* _pending;
  static CHeapBitMap*                       _pending_regions;   // H2 start regions of pending labels
  static bool                               _cards_raised;      // by this pause's move_pending

  static int pending_index(jlong label);

public:
  // What a walk moved, on how many GC workers.
  struct Moved {
    size_t objects;
    size_t words;
    size_t too_large;
    uint   movers;
    Moved() : objects(0), words(0), too_large(0), movers(0) {}
    Moved(size_t o, size_t w, size_t t, uint m) : objects(o), words(w), too_large(t), movers(m) {}
  };

  // Then refresh_pending_regions, once the pause has noted all.
  static void note(jlong label, TeraHeapRegions* regions);
  static bool any();
  static bool any_pending() { return _pending != NULL && _pending->is_nonempty(); }
  // Whether mixed pauses read the oldgen cards of H2 start region `region`.
  static bool is_pending_region(uint region) {
    return any_pending() && _pending_regions->at(region);
  }

  // Before a pause reads H2's cards, once it has moved what it moves (a move
  // may open a region for a pending label, or take a freed one).
  static void refresh_pending_regions(TeraHeapRegions* regions);
  // A concurrent start, before H2's cards are read: a label stops pending
  // once a third cycle begins since it was noted.
  static void cycle_begins(TeraHeapRegions* regions);
  // A mixed pause, before evacuation, on all GC workers, the movers sharing
  // `shared` and moving what lies in the collection set: moves from the
  // pending labels' fields. A label stops
  // pending once its fields refer into H1 no more. An oldgen card with a
  // field still referring to what the pause may collect is raised to
  // youngergen, which every pause reads: once every pending region is
  // walked, the pause's card scan need not read the pending labels' oldgen
  // cards again, most of which refer to regions it leaves alone.
  static Moved move_pending(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                            TeraHeapMoveShared* shared);
  // Every pause, before move_pending may run.
  static void pause_begins() { _cards_raised = false; }
  // Whether this pause's card scan must read the pending labels' oldgen cards.
  static bool pause_reads_pending_cards() { return any_pending() && !_cards_raised; }
  // In a full GC, after marking, on all GC workers: moves from the noted
  // labels' fields. The labels are forgotten unless H2 filled up; none stays pending.
  static Moved move(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                    TeraHeapMoveShared* shared);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPLEFTBEHIND_HPP
