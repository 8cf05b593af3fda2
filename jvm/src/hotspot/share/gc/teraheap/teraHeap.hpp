/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAP_HPP
#define SHARE_GC_TERAHEAP_TERAHEAP_HPP

#include "gc/teraheap/teraHeapStats.hpp"
#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"
#include "memory/virtualspace.hpp"
#include "oops/oopsHierarchy.hpp"

class ObjectClosure;
class ParCompactionManager;
class TeraHeapFile;
class TeraHeapRegions;

// The entry point of the TeraHeap module: what the hooks in HotSpot's own
// files call. The Java heap is laid out as [H2 | old | young]: H2 below the
// Parallel collector's generations, so that the scavenger's single "is young"
// compare never takes an H2 address for a young one, and one range check
// tells H2 from H1.
//
// Over a full GC (PSParallelCompact) the hooks run in this order:
//   prepare_marking      H2's non-clean cards and its objects' classes are roots
//   (marking)            references into H2 mark regions live, never objects
//   propagate_liveness   after strong marking, and again after reference processing
//   (weak processing)    referents in dead regions are cleared
//   collect              free dead regions; move advised (or, past the high
//                        threshold, all) tagged groups into H2; redirect live
//                        H1 objects' references to moved objects
//   (adjust roots)       roots follow the old copies' forwarding pointers
//   adjust_h2            H2's references into H1 follow compaction; card states reset
//   (compaction)
class TeraHeap : AllStatic {
  static MemRegion           _h2;        // the whole of H2
  static MemRegion           _h1;        // old and young generations, as reserved
  static TeraHeapFile*       _file;
  static TeraHeapRegions*    _regions;
  static size_t              _bytes_moved;
  static size_t              _objects_moved;
  static bool                _reported_full;
  static bool                _moved_this_gc;  // old copies with forwarding pointers exist

  static void log_layout();
  static size_t h1_live_words();

public:
  // Bytes to add to the heap reservation for H2.
  static size_t reserved_size();

  // Given the whole heap reservation, maps H2's file over its low end and
  // returns the rest, for the old and young generations.
  static ReservedSpace initialize(ReservedSpace heap_rs);

  static bool is_in_h2(const void* p) { return _h2.contains(p); }
  static MemRegion h2_region() { return _h2; }
  static MemRegion h1_reserved_region() { return _h1; }
  static size_t region_count();

  // Full GC.
  static void prepare_marking(ParCompactionManager* cm);
  static void mark_region_live(oop obj);
  static void propagate_liveness();
  static bool is_alive_in_h2(oop obj);
  static void collect();
  static oop forwardee(oop obj);
  // Whether this full GC moved objects whose old copies roots or H2 may still
  // refer to: true from the move until H2's references are adjusted. Outside
  // that window no reference leads to an old copy, so adjusting skips the check.
  static bool has_moved_objects() { return _moved_this_gc; }
  static void adjust_h2(ParCompactionManager* cm);

  // Minor GC: worker `worker_id` of `workers` scans its share of H2's cards.
  static void scavenge_backward_references(uint worker_id, uint workers);

  // Checks every H2 object and its cards (-XX:+VerifyBeforeGC/AfterGC).
  static void verify();

  // Every object in H2, for heap dumps, heap inspection and JVMTI heap walks.
  static void object_iterate(ObjectClosure* cl);

  static TeraHeapStats stats();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAP_HPP
