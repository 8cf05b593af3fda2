/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPROOTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPROOTS_HPP

#include "memory/allStatic.hpp"
#include "runtime/handles.hpp"
#include "utilities/globalDefinitions.hpp"

// The side table of tagged roots: (root, label) pairs that tagRoot() records
// and the labels that move() advises to move. Roots are held weakly, so that
// tagging never keeps an object alive; objects carry no tag of their own,
// which is why TeraHeap costs no header space.
class TeraHeapRoots : AllStatic {
public:
  static void initialize();

  static void add(Handle root, jlong label);
  static void advise_move(jlong label);

  static bool is_movable(jlong label);
  static size_t live_count();
  static size_t movable_label_count();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPROOTS_HPP
