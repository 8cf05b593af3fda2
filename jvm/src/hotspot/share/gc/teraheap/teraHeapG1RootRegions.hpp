/*
 * The G1 old regions whose data mixed pauses move to H2.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPG1ROOTREGIONS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPG1ROOTREGIONS_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class HeapRegion;

// A pause moves a tagged root only while it lies in its collection set, and a
// root promoted before its move() hint (most of Giraph's buffers are) lies in
// an old region that mixed pauses skip, for its data is live. Remark counts,
// per such region, the bytes of those roots: G1's policy takes them as bytes
// a mixed pause frees, for they leave H1 for H2 (live_bytes_staying). The
// region then gets its remembered set rebuilt, is chosen as a candidate and
// collected, and that pause offers its roots again.
// The same holds for the old regions that only the oldgen cards of labels a
// pause left in part in H1 refer into (TeraHeapLeftBehind): counted whole.
// The counts stay as Remark found them until the next cycle begins (or a full
// GC), so that every candidate's reclaimable bytes stay what G1 summed.
class TeraHeapG1RootRegions : AllStatic {
  static size_t* _bytes;    // by G1 region index
  static uint    _length;
  static uint    _regions;  // how many have a count

  static void count(const HeapRegion* hr, size_t bytes);

public:
  static void initialize(uint g1_regions);

  // Remark, after weak processing (dead roots are cleared), before the
  // remembered sets to rebuild are chosen.
  static void find();
  // A marking cycle begins, or a full GC: no region is counted.
  static void clear();

  static bool is_empty() { return _regions == 0; }

  // G1's hooks (its remembered set tracking, candidate choice and reclaimable
  // bytes): of an old region's live bytes, those that stay in H1 when a mixed
  // pause collects it, for its advised roots move to H2 instead.
  static size_t live_bytes_staying(const HeapRegion* hr, size_t live_bytes) {
    return live_bytes - MIN2(live_bytes, bytes(hr));
  }
  // Such a region: G1HeapWastePercent never prunes it (nor, as G1 prunes
  // from the least efficient end, a candidate before it), for its roots were
  // advised to move.
  static bool holds_roots_to_move(const HeapRegion* hr) { return bytes(hr) > 0; }
  static size_t bytes(const HeapRegion* hr);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPG1ROOTREGIONS_HPP
