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
class ParCompactionManager;
class TeraHeapBacking;
class TeraHeapFile;
class TeraHeapMover;
class TeraHeapRegions;
class ThreadClosure;

// The entry point of the TeraHeap module: what the hooks in HotSpot's own
// files call. The Java heap is laid out as [H2 | old | young]: H2 below the
// Parallel collector's generations, so that the scavenger's single "is young"
// compare never takes an H2 address for a young one, and one range check
// tells H2 from H1.
//
// Over a full GC (PSParallelCompact) the hooks run in this order:
//   prepare_marking      every region dead until marking reaches it; orphaned
//                        labels due for a trace are picked (TeraHeapEvacuation)
//   (marking, reference  references into H2 make regions live, never objects
//    processing)         (but objects of traced labels); whoever drains a marking
//                        stack reads the live regions' cards and marks their H1
//                        referents (mark_through_h2)
//   (weak processing)    referents in dead regions, or unreached in traced ones,
//                        are cleared
//   collect              free dead regions; move advised (or, past the high
//                        threshold, all) tagged groups into H2; evacuate sparse
//                        traced labels; redirect live H1 objects' references to
//                        moved objects
//   (summary)            may write a filler over an old copy (TeraHeapForwarding)
//   (adjust roots)       roots follow the moves (adjust_pointer)
//   adjust_h2            H2's references into H1 follow compaction; card states
//                        reset; evacuated regions freed
//   (compaction)
class TeraHeap : AllStatic {
  static MemRegion           _h1;        // old and young generations, as reserved
  static TeraHeapFile*       _file;
  static TeraHeapBacking*    _backing;
  static TeraHeapRegions*    _regions;
  static size_t              _bytes_moved;
  static size_t              _objects_moved;
  static bool                _reported_full;
  static size_t              _regions_freed_this_gc;   // by collect(), reported when the GC is done with H2
  static bool                _moved_this_gc;  // old copies with forwarding pointers exist
  static uint                _stress_moves;

  static void log_layout();
  static size_t h1_live_words();
  static void stress_move(TeraHeapMover* mover);

public:
  // Bytes to add to the heap reservation for H2.
  static size_t reserved_size();

  // Given the whole heap reservation, maps H2's file over its low end and
  // returns the rest, for the old and young generations.
  static ReservedSpace initialize(ReservedSpace heap_rs);

  static bool is_in_h2(const void* p) { return TeraHeapAddressSpace::contains(p); }
  static MemRegion h2_region() { return TeraHeapAddressSpace::range(); }
  static MemRegion h1_reserved_region() { return _h1; }

  // Full GC.
  static void prepare_marking();
  static void mark_region_live(oop obj);
  // Full GC, after the parallel marking from roots, before reference
  // processing: the GC workers read the regions it made live (TeraHeapLiveness),
  // then regions whose summarized cards marking skipped are checked
  // (TeraHeapBackwardTargets), and what they lead to is marked by the GC
  // workers.
  static void marked_from_roots();
  // Called whenever a marking stack runs dry: pushes onto `cm`'s stacks what
  // H2 leads to next, either the cards of one region that marking made live
  // (not before marked_from_roots) or an object of a traced label waiting to
  // be followed. False if nothing was waiting.
  static bool mark_through_h2(ParCompactionManager* cm);
  static bool is_alive_in_h2(oop obj);
  static void collect();
  // Adjusting a reference to `obj`: true if TeraHeap took care of it (an H2
  // object, which a full GC moves only out of an evacuated label, or a moved
  // object, now at its H2 copy), false for the collector to adjust. Between a
  // move and the end of adjust_h2 roots and H2 may still refer to old copies;
  // outside that window only the range check is made. (teraHeap.inline.hpp)
  template <class T> static inline bool adjust_pointer(T* p, oop obj);
  static void adjust_h2();

  // Minor GC: worker `worker_id` of `workers` scans its share of H2's cards.
  static void scavenge_backward_references(uint worker_id, uint workers);

  // Checks every H2 object and its cards (-XX:+VerifyBeforeGC/AfterGC).
  static void verify();

  // Every object in H2, for heap dumps, heap inspection and JVMTI heap walks.
  static void object_iterate(ObjectClosure* cl);

  // TeraHeap's own threads, listed with the collector's.
  static void threads_do(ThreadClosure* tc);

  static TeraHeapStats stats();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAP_HPP
