/*
 * The G1 collector's facade: its hooks that pass G1's own types.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1_HPP

#include "memory/allStatic.hpp"
#include "memory/virtualspace.hpp"

class G1RegionToSpaceMapper;

// What G1's hooks call, and G1 as the rest of the module sees it
// (TeraHeapCollector). The port is being built (docs/g1.md): so far H2 is
// laid out below G1's heap and its cards are carved in front of G1's card
// array, and no G1 pause knows H2 yet, so nothing moves. Only a debug build
// runs it, with -XX:+TeraHeapG1InProgress.
//
// The reservation is [H2 | G1's heap]. G1's region table and side tables
// cover its heap alone; H2's cards lie directly below G1's card array, where
// G1's post-write barrier, which computes a card from the table's biased
// base with no range check, already marks them.
class TeraHeapG1 : AllStatic {
public:
  // Given the whole heap reservation, maps H2's file over its low end and
  // returns the rest, for G1's heap. Reserves H2's cards and G1's card array
  // together.
  static ReservedSpace initialize(ReservedSpace heap_rs);

  // The mapper of G1's card array (`size` bytes, a card per `translation_factor`
  // bytes of heap), directly above H2's cards.
  static G1RegionToSpaceMapper* card_table_mapper(size_t size, size_t translation_factor);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1_HPP
