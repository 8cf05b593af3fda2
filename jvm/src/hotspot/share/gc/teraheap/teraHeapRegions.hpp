/*
 * H2's region table and allocator.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPREGIONS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPREGIONS_HPP

#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "memory/allocation.hpp"
#include "memory/memRegion.hpp"
#include "runtime/atomic.hpp"
#include "utilities/growableArray.hpp"

class Klass;
class Mutex;
class TeraHeapRegions;

// What stands behind a region in use besides its entry in the table: storage
// and side tables (TeraHeapBacking). Brought up when a region opens, taken
// down when regions are freed.
class TeraHeapRegionBacking : public CHeapObj<mtGC> {
public:
  virtual ~TeraHeapRegionBacking() {}
  // False if the file system has no room for the region's storage.
  virtual bool bring_up(uint region) = 0;
  // Regions [first, end) were freed; `regions` tells which are still in use.
  virtual void take_down(uint first, uint end, const TeraHeapRegions* regions) = 0;
};

// H2 cut into fixed-size regions. Each label fills regions of its own,
// append-only; an object larger than a region takes contiguous regions (the
// first one is its "start" region and stands for all of them). Per region the
// DRAM metadata is: top, label, a live bit, the regions its objects refer to,
// and the classes of its objects (kept loaded while the region lives).
//
// References between regions of one label are recorded once, when the group
// moves, and kept: a group is one unit. A region that two groups of a label
// share (a label reused for successive groups) links them too, so a dropped
// group is freed by tracing its label (TeraHeapTrace, TeraHeapEvacuation), not here.
// References to another label's regions keep their cards non-clean, are found
// again by every full GC, and so stop keeping the other group alive as soon as
// the mutator drops them.
//
// Liveness during a full GC's marking: a region becomes live when marking
// (by any GC worker, or the VM thread during reference processing) reaches
// one of its objects. The first to set its live bit queues it; whoever next
// drains its marking stack claims it, makes its dependencies live and reads
// its cards (TeraHeapLiveness). So a region is read once per full GC, on the
// thread and at the moment that marking reaches it.
class TeraHeapRegions : public CHeapObj<mtGC> {
  const uint      _count;
  TeraHeapRegionBacking* const _backing;

  HeapWord**      _top;          // NULL: the region is free
  jlong*          _label;
  uint*           _start;        // start region of a multi-region object, else itself
  volatile bool*  _live;
  bool*           _has_cards;    // the last read of its cards found some not clean (or it was filled)
  bool*           _written;      // a collector found a card the program wrote since the region was last traced
  GrowableArrayCHeap<uint, mtGC>**   _deps;     // to regions of the same label, kept
  GrowableArrayCHeap<Klass*, mtGC>** _klasses;

  // Claims and their retractions, and region metadata, from GC workers moving in parallel.
  Mutex*          _claim_lock;
  Mutex*          _metadata_lock;

  // Live start regions whose cards this full GC has not read yet.
  Mutex*          _pending_lock;
  GrowableArrayCHeap<uint, mtGC> _pending;
  volatile uint   _pending_count;

  GrowableArrayCHeap<jlong, mtGC> _open_labels;   // labels with an open region...
  GrowableArrayCHeap<uint, mtGC>  _open_regions;  // ...and that region
  uint            _free_hint;
  size_t          _regions_freed;
  size_t          _regions_in_use;
  bool            _storage_full;   // the file system refused a region its storage

  // Start regions in use, in address order from the end of each full GC on:
  // what every pass over H2 visits, so that no GC step costs in proportion
  // to H2's capacity.
  GrowableArrayCHeap<uint, mtGC> _in_use;

  bool is_free(uint i) const { return _top[i] == NULL; }
  bool claim_free_run(uint n, uint* first);
  bool open(uint i, jlong label, uint start);
  HeapWord* claim_run(jlong label, size_t words);
  void free_run(uint first, uint end);
  uint open_region_of(jlong label) const;
  void set_open_region(jlong label, uint region);

public:
  explicit TeraHeapRegions(TeraHeapRegionBacking* backing);

  uint count() const { return _count; }
  size_t region_words() const { return TeraHeapAddressSpace::region_words(); }
  HeapWord* bottom(uint i) const { return TeraHeapAddressSpace::region_bottom(i); }
  // What start region i holds: its objects, or the one object it starts.
  MemRegion used(uint i) const { return MemRegion(bottom(i), top(i)); }
  // Whether start region i holds one object larger than a region.
  bool holds_large_object(uint i) const { return used(i).word_size() > region_words(); }
  HeapWord* top(uint i) const { return _top[i]; }
  bool in_use(uint i) const { return !is_free(i); }
  // The region holding p, or the start region of the object that spans it.
  uint index_of(const void* p) const {
    return _start[raw_index_of(p)];
  }
  uint raw_index_of(const void* p) const { return TeraHeapAddressSpace::region_index(p); }
  jlong label(uint i) const { return _label[i]; }
  // Start regions in use: in_use_region(k) for k below in_use_count().
  int in_use_count() const { return _in_use.length(); }
  // Puts them in address order (after regions opened), so that neighbours in
  // the list are mostly neighbours in H2.
  void sort_in_use();
  uint in_use_region(int k) const { return _in_use.at(k); }
  // Whether any region that overlaps mr is in use.
  bool any_in_use(MemRegion mr) const;

  // Space in `label`'s regions for a mover's buffer: at least `min_words`, up
  // to `want_words` as far as the label's open region has them (`*got` says
  // how many); a fresh region when it has less than `min_words`. An object
  // larger than a region gets regions of its own, exactly its size. NULL when
  // H2 has no room. Any GC worker.
  HeapWord* claim(jlong label, size_t min_words, size_t want_words, size_t* got);
  // Gives back [p, p + words), within a region, if nothing was claimed after
  // it there: then true, and H2's walks end before it. Any GC worker.
  bool retract(HeapWord* p, size_t words);
  // Keeps k loaded while the region lives. Any GC worker.
  void record_klass(uint region, Klass* k);
  GrowableArrayCHeap<Klass*, mtGC>* klasses(uint region) { return _klasses[region]; }

  // Liveness, recomputed at every full GC.
  void clear_live();
  // Makes region i (or the start region of the object spanning it) live;
  // true if this call did. Any thread.
  bool make_live(uint i);
  // The same, and a region made live here is queued for its cards to be
  // read (a full GC's marking). Any thread.
  void mark_live(uint i);
  // Queues start region i for its cards to be read, whatever its live bit
  // (the caller queues it once). Any thread.
  void queue_pending(uint i);
  bool is_live(const void* p) const { return _live[index_of(p)]; }
  bool has_pending() const { return Atomic::load(&_pending_count) != 0; }
  // A queued region, taken off the queue; UINT_MAX if none.
  uint claim_pending();
  // Records a reference from region `from` to region `to` if both hold the
  // same label: such links are kept for good. Returns false for another
  // label's region, whose link its card must keep. One thread per region `from`
  // at a time (the collectors' card scans split H2 by region).
  bool add_dependency(uint from, uint to);
  // The same, for movers, which may fill one region together.
  bool add_dependency_locked(uint from, uint to);
  GrowableArrayCHeap<uint, mtGC>* dependencies(uint i) { return _deps[i]; }
  // Forgets region i's links: the regions they named were freed, and its
  // references to what replaced them are on its dirtied cards.
  void forget_dependencies(uint i);
  bool same_label(uint a, uint b) const { return _label[_start[a]] == _label[_start[b]]; }
  // Whether the full GC's adjust step must read the region's cards.
  void set_has_cards(uint i, bool v) { _has_cards[i] = v; }
  bool has_cards(uint i) const { return _has_cards[i]; }
  // A collector found a card of start region i that the program wrote: what
  // the region holds may have changed since it was last traced. Any GC worker.
  void note_written(uint i) { _written[i] = true; }
  bool written(uint i) const { return _written[i]; }
  void clear_written(uint i) { _written[i] = false; }
  // Its objects were all copied elsewhere: the next free_dead_regions frees it.
  void set_dead(uint i) { _live[i] = false; }
  // Forgets `label`'s open region: its next claim opens a fresh one.
  void close_label(jlong label);
  // Frees every region left unmarked; returns how many.
  size_t free_dead_regions();

  size_t used_bytes() const;
  size_t regions_in_use() const { return _regions_in_use; }
  size_t regions_freed() const { return _regions_freed; }
  // Whether an allocation failed because the file system had no room for a
  // region (possible with -XX:-TeraHeapPreallocate); cleared on reading.
  bool take_storage_full() { bool v = _storage_full; _storage_full = false; return v; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPREGIONS_HPP
