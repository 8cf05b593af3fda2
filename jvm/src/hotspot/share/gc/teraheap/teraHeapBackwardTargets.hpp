/*
 * The H1 objects that each region's summarized cards refer to.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPBACKWARDTARGETS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPBACKWARDTARGETS_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/growableArray.hpp"

class Mutex;
class TeraHeapRegions;

// The H1 objects that each H2 region's summarized cards refer to. Most of
// H2's references into H1 lead to a few objects that stay where they are:
// the JDK's cached boxes (Integer.valueOf), Class objects, Scala's ClassTag
// singletons. Spark's cached rows refer to such boxes from nearly every card.
// Read at every full GC, those cards would be all of H2, twice (marking and
// the adjust step). A card whose references into H1 all lead to old objects
// is summarized instead (TeraHeapCards::summarized): its region remembers
// those objects here, marking does not read the card, and the adjust step
// reads the region's summarized cards again only if one of them
// moves (and then summarizes them anew). A region remembers at most
// max_targets objects; beyond that its cards stay oldgen and are read.
//
// A summarized card the program writes becomes dirty, and the objects its
// region remembers may then include some that nothing refers to any more,
// which marking must not keep alive (a weak reference's referent, say). So a
// region in which a collector finds a dirty card is stale: the next full GC
// reads its summarized cards as any other, marking what they refer to now,
// and its adjust step remembers their targets anew.
//
// A summary may hold an object that no field refers to any more: C2 marks no
// card when it stores a constant null (nor does the interpreter's aastore
// of null). So marking never keeps an object alive for a summary. During the
// parallel marking from roots, a live region's summarized cards are skipped
// and the region is listed; after it (confirm), a listed region whose
// remembered objects were all marked anyway (the Integer cache, Class
// objects: nearly always) needs nothing more, and one with an unmarked object
// has its summarized cards read then, marking what they really refer to, and
// turns stale. Regions reached later (reference processing) read all their
// cards.
//
// Per start region; a region's set is written only by the GC worker that
// holds the region (the adjust step claims whole regions).
class TeraHeapBackwardTargets : AllStatic {
  struct Set {
    oop* slots;      // open addressing, NULL: free
    uint capacity;   // a power of two, at least twice count
    uint count;
    bool stale;      // a card of the region was written since it was summarized
  };

  static Set* _sets;
  static Mutex* _lock;
  static GrowableArrayCHeap<uint, mtGC>* _listed;   // regions whose summarized cards marking skipped
  static volatile bool _skipping;                   // marking from roots: summaries may be used

  static uint slot_of(const Set* s, oop target);
  static void grow(Set* s);

public:
  static const uint max_targets = 256;

  static void initialize(uint regions);

  // Remembers `target` for `region`; false if its set is full.
  static bool add(uint region, oop target);
  static bool contains(uint region, oop target);
  // Calls f(oop) on each object `region` remembers.
  template <typename F> static void targets_do(uint region, F f) {
    const Set* s = &_sets[region];
    for (uint i = 0; i < s->capacity; i++) {
      if (s->slots[i] != NULL) {
        f(s->slots[i]);
      }
    }
  }
  static bool is_empty(uint region) { return _sets[region].count == 0; }
  static bool is_stale(uint region) { return _sets[region].stale; }
  static void set_stale(uint region) { _sets[region].stale = true; }
  // A collector found a dirty card in `region`.
  static void note_written(uint region) {
    if (_sets[region].count > 0) {
      _sets[region].stale = true;
    }
  }
  // Full GC marking. Before it: summarized cards may be skipped; whether a
  // live region's may; a region whose summarized cards were skipped; after
  // the marking from roots: checks the listed regions, and returns those
  // whose summary names an unmarked object (made stale), whose summarized
  // cards marking must read after all (TeraHeapLiveness); from then on no
  // summarized card is skipped; once they are read, confirmed() forgets them.
  static void begin_marking() { _skipping = true; }
  static bool may_skip(uint region) { return _skipping && _sets[region].count > 0 && !_sets[region].stale; }
  static void list_skipped(uint region);
  static const GrowableArrayCHeap<uint, mtGC>& confirm();
  static void confirmed();
  // Full GC, once new addresses are known: whether any remembered object of a
  // region that is not stale (so all were marked) moves. `adjuster` is the
  // collector's (teraHeapBackwardTargets.inline.hpp).
  template <class Adjuster> static inline bool any_moves(uint region, Adjuster* adjuster);
  // Before the region's summarized cards are read again, or once it is freed.
  static void clear(uint region);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPBACKWARDTARGETS_HPP
