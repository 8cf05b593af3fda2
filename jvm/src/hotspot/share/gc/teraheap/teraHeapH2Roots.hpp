/*
 * Tagged roots in H2, per region, and whether marking from outside H2 reached them.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPH2ROOTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPH2ROOTS_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"
#include "runtime/atomic.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapRegions;

// Where the tagged roots of the groups in H2 are, region by region, from
// their move on. At every full GC each is flagged if the marking from roots
// (stacks, JNI handles, class data, and what they reach in H1) reaches it
// before any of H2's cards is read. A label all of whose roots were reached
// is held from outside H2; the others are orphaned (TeraHeapOrphans).
class TeraHeapH2Roots : AllStatic {
  struct Root {
    HeapWord* addr;
    bool      reached;
  };
  typedef GrowableArrayCHeap<Root, mtGC> RootList;

  static TeraHeapRegions* _regions;
  static RootList** _roots;                                 // per region, sorted; NULL if none
  static GrowableArrayCHeap<uint, mtGC>* _rooted_regions;   // regions with a list
  // From begin_marking to end_marking_from_roots: marking has read no H2
  // card yet, so a root it reaches is held from outside H2.
  static volatile bool _counting;

  static int compare_root_to(HeapWord* const& a, const Root& b);
  static int compare_roots(const Root& a, const Root& b);
  static void flag_if_root(uint r, oop obj);

public:
  static void initialize(TeraHeapRegions* regions);

  // Before marking: no root reached yet.
  static void begin_marking();
  // Marking reached `obj`, in start region `r`: flags it if it is a root and
  // the marking from roots is still running. Any GC worker.
  static void note_reached(uint r, oop obj) {
    if (_roots[r] != NULL && Atomic::load(&_counting)) {
      flag_if_root(r, obj);
    }
  }
  static void end_marking_from_roots();

  // A root that just moved to H2, or was copied within it: live in this GC,
  // so it holds its label.
  static void add(oop root);
  // Forgets the roots of regions freed since they were listed.
  static void forget_freed();
  // Region r was evacuated: its copied roots are listed at their copies.
  static void follow_copies(uint r);
  // Forgets the roots of region r that `is_live` calls dead: a trace found
  // them unreached.
  static void forget_dead(uint r, bool is_live(oop));
  // The labels all of whose roots the last marking from roots reached, sorted.
  static void held_labels(GrowableArrayCHeap<jlong, mtGC>* held);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPH2ROOTS_HPP
