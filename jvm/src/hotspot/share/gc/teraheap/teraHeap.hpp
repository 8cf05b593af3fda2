/*
 * The module's facade: what HotSpot's hooks call, in a full GC's order.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAP_HPP
#define SHARE_GC_TERAHEAP_TERAHEAP_HPP

#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapStats.hpp"
#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"
#include "memory/virtualspace.hpp"
#include "oops/oopsHierarchy.hpp"

class ObjectClosure;
class TeraHeapBacking;
class TeraHeapCollector;
class TeraHeapFile;
class TeraHeapRegions;
class ThreadClosure;

// The entry point of the TeraHeap module: what the hooks in HotSpot's own
// files call, whichever collector runs H1. H2 lies below H1 in the heap's
// reservation, so that one range check tells H2 from H1. A collector's hooks
// that pass its own types call its facade (TeraHeapParallel), which also tells
// this one what it needs of the collector (TeraHeapCollector).
//
// Over a full GC the hooks run in this order:
//   prepare_marking      every region dead until marking reaches it; orphaned
//                        labels due for a trace are picked (TeraHeapEvacuation)
//   (marking, reference  references into H2 make regions live, never objects
//    processing)         (but objects of traced labels); once marking from roots
//                        is done, whoever drains a marking stack reads the live
//                        regions' cards and marks their H1 referents (the
//                        collector's facade: marked_from_roots, mark_through_h2)
//   (weak processing)    referents in dead regions, or unreached in traced ones,
//                        are cleared
//   collect              free dead regions; move advised (or, past the high
//                        threshold, all) tagged groups into H2; evacuate sparse
//                        traced labels; the collector redirects live H1
//                        objects' references to moved objects
//   (Parallel: summary)  may write a filler over an old copy (TeraHeapForwarding)
//   (adjust roots)       roots follow the moves (adjust_pointer)
//   adjust_h2            H2's references into H1 follow compaction; card states
//                        reset; evacuated regions freed
//   (compaction)
class TeraHeap : AllStatic {
  static MemRegion           _h1;        // the collector's part of the reservation
  static TeraHeapFile*       _file;
  static TeraHeapBacking*    _backing;
  static TeraHeapRegions*    _regions;
  static size_t              _bytes_moved;
  static size_t              _objects_moved;
  static bool                _reported_full;
  static size_t              _regions_freed_this_gc;   // by collect(), reported when the GC is done with H2
  static bool                _moved_this_gc;  // old copies with forwarding pointers exist

  static void log_layout();
  static void report_h2_full(bool h2_full, size_t too_large);

public:
  // Bytes to add to the heap reservation for H2.
  static size_t reserved_size();

  // Given the whole heap reservation, maps H2's file over its low end and
  // returns the rest, H1, for `collector`.
  static ReservedSpace initialize(ReservedSpace heap_rs, TeraHeapCollector* collector);

  static bool is_in_h2(const void* p) { return TeraHeapAddressSpace::contains(p); }
  static MemRegion h2_region() { return TeraHeapAddressSpace::range(); }
  static MemRegion h1_reserved_region() { return _h1; }
  static TeraHeapRegions* regions() { return _regions; }
  // Whether p, in H2, lies in a region in use rather than a freed one (heap verification).
  static bool is_in_region_in_use(const void* p);

  // Full GC.
  static void prepare_marking();
  static void mark_region_live(oop obj);
  static bool is_alive_in_h2(oop obj);
  static void collect();
  // A pause that moves (G1's young and mixed ones), before evacuation: the
  // groups advised since the last such pause move what of them the
  // collector lets move now (TeraHeapCollector::is_marked); the collector's
  // evacuation then redirects references to the old copies. With
  // `old_roots`, roots that an earlier pause left in H1 are offered again if
  // the collector lets them move now (a mixed pause collecting their region);
  // with `left_behind`, so is what the pending labels' fields lead to
  // (TeraHeapLeftBehind::move_pending).
  static void move_in_pause(bool old_roots, bool left_behind);
  // Frees every region left dead; returns how many. A full GC's collect()
  // does, and under G1 so does the Remark of a marking cycle (TeraHeapG1Marking).
  static size_t free_dead_regions();
  // True from collect() to adjust_h2() if anything moved: old copies with
  // forwarding pointers exist.
  static bool moved_this_gc() { return _moved_this_gc; }
  // Adjusting a reference to `obj`: true if TeraHeap took care of it (an H2
  // object, which a full GC moves only out of an evacuated label, or a moved
  // object, now at its H2 copy), false for the collector to adjust. Between
  // a move and the end of adjust_h2 roots and H2 may still refer to old
  // copies; outside that window only the range check is made. `Collector`
  // tells what is marked and where the collector may overwrite an old copy's
  // header (TeraHeapForwarding). (teraHeap.inline.hpp)
  template <class Collector, class T> static inline bool adjust_pointer(T* p, oop obj);
  static void adjust_h2();

  // Checks every H2 object and its cards (-XX:+VerifyBeforeGC/AfterGC).
  static void verify();

  // Every object in H2, for heap dumps, heap inspection and JVMTI heap walks.
  static void object_iterate(ObjectClosure* cl);

  // TeraHeap's own threads, listed with the collector's.
  static void threads_do(ThreadClosure* tc);

  static TeraHeapStats stats();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAP_HPP
