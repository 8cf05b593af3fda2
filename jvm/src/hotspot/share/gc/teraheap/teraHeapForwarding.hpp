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
// says so, except where the collector may write over that header before its
// adjust step: Parallel's filler before a dense prefix's end, G1's clearing of
// a freed humongous region. The collector keeps the moves of objects starting
// there here too, and looks them up first (forwardee_or_null).
class TeraHeapForwarding : AllStatic {
  struct Move {
    HeapWord* from;
    oop to;
  };
  static GrowableArrayCHeap<Move, mtGC>* _kept;   // sorted by moves_done
  static Mutex* _kept_lock;                       // movers record in parallel

  static int compare_moves(Move* a, Move* b);
  static int compare_move_from(HeapWord* const& addr, const Move& move);
  static oop find_kept(HeapWord* addr);

public:
  static void initialize();
  // Keeps the move of `old_copy` to `copy`, whose header the collector may
  // overwrite. Any GC worker.
  static void keep(oop old_copy, oop copy);
  // The moves of this full GC are done: readies the lookups, which the GC
  // workers then make in parallel.
  static void moves_done();
  // The H2 copy of `obj` if it moved; `obj` itself if it is dead and did not
  // move (a stale reference, left stale); NULL if it is a live H1 object.
  // `Collector` tells marked objects and the places where a header may have
  // been overwritten (teraHeapForwarding.inline.hpp).
  template <class Collector> static inline oop forwardee_or_null(oop obj);
  // Roots and H2 are adjusted: forgets the kept moves.
  static void clear();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP
