/*
 * What the module asks of the collector that runs H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCOLLECTOR_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCOLLECTOR_HPP

#include "gc/shared/cardTable.hpp"
#include "memory/allocation.hpp"
#include "memory/memRegion.hpp"
#include "oops/oopsHierarchy.hpp"

class TeraHeapMover;
class TeraHeapRegions;
class WorkGang;

// The collector that runs H1, as the collector-independent part of the
// module sees it. One instance, made by that collector's facade
// (TeraHeapParallel) when the heap is initialized. Its calls are made a few
// times per GC, and by the movers per object they reach (is_marked, moved);
// per-field paths take the collector's marker or adjuster as a template
// parameter instead.
class TeraHeapCollector : public CHeapObj<mtGC> {
  static TeraHeapCollector* _current;

public:
  static TeraHeapCollector* current() { return _current; }
  static void set_current(TeraHeapCollector* collector);

  virtual WorkGang* workers() = 0;

  // Where the collector's post-write barrier marks the card of h2.start():
  // H2's cards lie in line with the collector's own, so the barrier needs no
  // change (TeraHeapCards).
  virtual CardTable::CardValue* h2_cards(MemRegion h2) = 0;

  // True if `obj`, an H1 object, is in the young generation (or young regions):
  // where H2's references must stay on cards the next young collection reads.
  virtual bool is_young(oop obj) = 0;
  // Heap verification: `obj`, an old H1 object that a field of H2 start
  // region `region` refers to from an oldgen card, is where the collector's
  // pauses that move old objects read that card, or never move it.
  virtual bool tracks_old_target(uint region, oop obj) { return true; }

  // Whether an H1 object may move now: marked, in a full GC after marking;
  // in the collection set, in a pause that moves (G1's young and mixed ones).
  virtual bool is_marked(oop obj) = 0;
  // A pause that moves: `root`, which stays in H1 (outside the collection
  // set), has the fields that lead to what moves sent to the H2 copies.
  virtual bool redirects_unmoved_root(oop root) { return false; }
  // A pause that moves: whether it may evacuate or free `obj`, an H1 object
  // that stays where it is for now (G1's collection set, optional regions
  // and humongous candidates), so that it must read a card referring to it.
  virtual bool pause_may_collect(oop obj) { return false; }
  // A mover copied `old_copy`, `words` long, to `copy` in H2, and left a
  // forwarding pointer in its mark word: the collector treats the old copy as
  // free space from now on, and sends references to it to the copy. Any GC
  // worker, for objects that may sit side by side.
  virtual void moved(oop old_copy, oop copy, size_t words) = 0;
  virtual size_t h1_capacity_words() = 0;       // the most H1 may hold: the thresholds' base
  virtual size_t h1_live_words() = 0;
  // What H1 has committed now, in bytes: the run-time sizer's view of it.
  virtual size_t h1_committed_bytes() = 0;
  // What H1's committed size grows and shrinks by: a generation's alignment,
  // a region.
  virtual size_t h1_resize_granule() = 0;
  // Whether H1 holds memory it gave back and has yet to uncommit (G1 does so
  // in a concurrent task): resident, but not in h1_committed_bytes().
  virtual bool h1_uncommit_pending() { return false; }

  // -XX:+TeraHeapStressMove: moves, with `mover`, groups rooted at old H1
  // objects that nobody tagged, until about `budget_words` have moved.
  virtual void stress_move(TeraHeapMover* mover, size_t budget_words) = 0;

  // Full GC: groups (or evacuated labels) have moved; the collector makes sure
  // no live H1 object keeps a reference to an old copy.
  virtual void moves_done() = 0;
  // Full GC, once new addresses are known: the fields on H2's cards follow
  // them (TeraHeapCardAdjust, with the collector's adjust step).
  virtual void adjust_cards(TeraHeapRegions* regions) = 0;
  // Full GC: H2's references into H1 are adjusted; no old copy is referred to.
  virtual void adjust_done() = 0;
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCOLLECTOR_HPP
