/*
 * Tagged roots and move hints.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPROOTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPROOTS_HPP

#include "memory/allStatic.hpp"
#include "runtime/handles.hpp"
#include "runtime/jniHandles.hpp"
#include "utilities/globalDefinitions.hpp"
#include "utilities/growableArray.hpp"

class Mutex;

// A tagged root, held weakly, and its label.
struct TeraHeapTaggedRoot {
  jweak root;
  jlong label;
  bool  offered;   // to a pause that moves: later ones leave it to full GCs
};

// The side table of tagged roots: (root, label) pairs that tagRoot() records
// and the labels that move() advises to move. Roots are held weakly, so that
// tagging never keeps an object alive; objects carry no tag of their own,
// which is why TeraHeap costs no header space.
class TeraHeapRoots : AllStatic {
  static Mutex* _lock;
  static GrowableArrayCHeap<TeraHeapTaggedRoot, mtGC>* _roots;   // in tagging order
  static GrowableArrayCHeap<jlong, mtGC>* _movable;              // labels with a move hint
  // Entries whose root died or reached H2 are dropped when the table has
  // doubled since the last sweep; the table then gives back what it no
  // longer needs.
  static int _sweep_at;

  static void sweep(GrowableArrayCHeap<jweak, mtGC>* dead);

public:
  static void initialize();
  // The root, with no keep-alive barrier: a pause may run while G1 marks,
  // and a root in its collection set must not reach a marking queue.
  static oop resolve_no_keepalive(jweak handle);

  static void add(Handle root, jlong label);
  // At a safepoint, after roots moved to H2 or died: the next add() sweeps.
  static void sweep_soon();
  static void advise_move(jlong label);

  static bool has_move_hint(jlong label);

  // For the full GC, at a safepoint: calls f(root, label) for every tagged
  // root still alive, in tagging order (teraHeapRoots.inline.hpp).
  template <typename F> static void roots_do(F f);
  // Forgets the move() hints of every label but those in `keep`: the full GC
  // that moves a group consumes its hint; a group that stayed (H2 full) keeps it.
  static void consume_hints(const GrowableArray<jlong>* keep);
  // For a pause that moves (G1's young and mixed ones), at a safepoint:
  // calls f(root, label) for every live tagged root in H1 whose label has a
  // move hint and that no such pause was offered yet, and marks it offered
  // (teraHeapRoots.inline.hpp). If `again`, a root offered before is offered
  // again where taken_now(root) says this pause may move it (a mixed pause
  // that collects its old region); else a root that stayed in H1 is left to
  // full GCs.
  template <typename F, typename P> static void offer_to_pause(bool again, P taken_now, F f);
  // At a safepoint, with no keep-alive: calls f(root) for every tagged root
  // in H1 whose label has a move hint (teraHeapRoots.inline.hpp).
  template <typename F> static void advised_in_h1_do(F f);
  // After such a pause: of the labels in `offered`, those with no tagged
  // root left in H1 have their hints used up.
  static void consume_hints_of_moved(const GrowableArray<jlong>* offered);
  // After such a pause that found H2 full: the roots still in H1 are offered
  // to later pauses again.
  static void offer_again_those_in_h1();
  static size_t live_count();
  static size_t movable_label_count();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPROOTS_HPP
