/*
 * Where moved objects' old copies went, until references are adjusted.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/growableArray.hpp"

class Mutex;

// Where the old copies of moved objects went, from the move until roots and
// H2's fields are adjusted. The forwarding pointer in an old copy's mark word
// says so, with one exception: a full GC that keeps a dense prefix
// (PSParallelCompact::fill_dense_prefix_end) writes a small filler object, and
// marks it live, over the dead space just before the prefix's end, which may
// hold an old copy's header. Only a few words at a collector region's edge are
// exposed, so the moves of objects starting there are also kept here, to be
// looked up first.
class TeraHeapForwarding : AllStatic {
  struct Move {
    HeapWord* from;
    oop to;
  };
  static GrowableArrayCHeap<Move, mtGC>* _exposed;   // sorted by moves_done
  static Mutex* _exposed_lock;                       // movers record in parallel

  static int compare_moves(Move* a, Move* b);
  static int compare_move_from(HeapWord* const& addr, const Move& move);
  static oop find_exposed(HeapWord* addr);

public:
  static void initialize();
  // The move of `old_copy` to `copy`; kept if the old copy's header is exposed. Any GC worker.
  static void record(oop old_copy, oop copy);
  // The moves of this full GC are done: readies the lookups, which the GC
  // workers then make in parallel.
  static void moves_done();
  // The H2 copy of `obj` if it moved; `obj` itself if it is dead and did not
  // move (a stale reference, left stale); NULL if it is a live H1 object.
  static oop forwardee_or_null(oop obj);
  // Roots and H2 are adjusted: forgets the kept moves.
  static void clear();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP
