/*
 * A minor GC's read of H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDSCAVENGE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDSCAVENGE_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class PSPromotionManager;
class TeraHeapRegions;

// A minor GC reads H2's dirty and youngergen cards as roots: the young
// objects they refer to are scavenged, and each card takes the state its
// fields now give it.
class TeraHeapCardScavenge : AllStatic {
public:
  // Worker `worker_id` of `workers` scans the cards of its share of the
  // regions in use (whole regions, so no card is shared between threads),
  // scavenges young referents and records links between H2 regions.
  static void scavenge(TeraHeapRegions* regions, PSPromotionManager* pm, uint worker_id, uint workers);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDSCAVENGE_HPP
