/*
 * What backs a region in use: its storage in H2's file and its side tables in DRAM.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPBACKING_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPBACKING_HPP

#include "gc/teraheap/teraHeapRegions.hpp"

class TeraHeapFile;
class TeraHeapStorageReleaser;
class ThreadClosure;

// A region in use has storage in H2's file, and DRAM for its cards
// (TeraHeapCards) and its object starts (TeraHeapObjectStarts), brought up
// when the region opens. When it is freed they are taken down, with its
// summary (TeraHeapBackwardTargets): the tables' pages at once (those that
// no region in use shares), the storage soon, outside the pause
// (TeraHeapStorageReleaser).
class TeraHeapBacking : public TeraHeapRegionBacking {
  TeraHeapFile* const _file;
  TeraHeapStorageReleaser* const _releaser;

public:
  TeraHeapBacking(TeraHeapFile* file, uint regions);

  virtual bool bring_up(uint region);
  virtual void take_down(uint first, uint end, const TeraHeapRegions* regions);
  // The releaser's thread.
  void threads_do(ThreadClosure* tc) const;
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPBACKING_HPP
