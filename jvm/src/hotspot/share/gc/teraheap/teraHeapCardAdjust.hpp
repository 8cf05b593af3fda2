/*
 * The full GC's adjust step over H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDADJUST_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDADJUST_HPP

#include "memory/allStatic.hpp"

class TeraHeapRegions;

// Once a full GC knows where H1's objects go, the fields of H2 that refer to
// them are found through H2's cards and adjusted, and every card read takes
// the state its fields give it: clean, youngergen, oldgen, or summarized
// (its old referents remembered by its region, TeraHeapBackwardTargets, so
// that the card is read again only if one of them moves).
// (teraHeapCardAdjust.inline.hpp.)
class TeraHeapCardAdjust : AllStatic {
public:
  // On all GC workers, a region at a time. Each worker makes an `Adjuster`
  // from its id: the collector's adjust step for one field (adjust(T* p)),
  // whether an H1 object is young (is_young(oop)), and what the collector
  // notes of an old object a card keeps referring to (old_target(oop)).
  template <class Adjuster> static void adjust(TeraHeapRegions* regions);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDADJUST_HPP
