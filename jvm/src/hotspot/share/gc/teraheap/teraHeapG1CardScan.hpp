/*
 * A G1 young pause's read of H2's cards.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1CARDSCAN_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1CARDSCAN_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class G1ParScanThreadState;
class TeraHeapRegions;

// H2's dirty and youngergen cards are roots of a young pause, as Parallel's
// scavenge reads them: referents in the collection set are evacuated with
// G1's own copying (their fields go on G1's queues; the H2 field's address
// never does), the field is updated, and the card takes the state its
// referents call for. H2's objects never move in a pause.
class TeraHeapG1CardScan : AllStatic {
public:
  // Worker `worker_id` of `workers` reads its share of H2's regions.
  static void scan(TeraHeapRegions* regions, G1ParScanThreadState* pss, uint worker_id, uint workers);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1CARDSCAN_HPP
