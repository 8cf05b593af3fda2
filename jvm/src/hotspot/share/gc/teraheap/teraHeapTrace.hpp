/*
 * One full GC's trace of orphaned labels' regions, object by object.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPTRACE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPTRACE_HPP

#include "memory/allocation.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/bitMap.hpp"
#include "utilities/growableArray.hpp"

class Mutex;
class TeraHeapRegions;

// A traced region: which of its objects marking reached, and their words.
class TeraHeapTracedRegion : public CHeapObj<mtGC> {
  HeapWord* _bottom;
public:
  CHeapBitMap     reached;
  volatile size_t live_words;

  TeraHeapTracedRegion(HeapWord* bottom, size_t words) :
    _bottom(bottom), reached(words, mtGC), live_words(0) {}
  BitMap::idx_t bit(oop obj) const { return pointer_delta(cast_from_oop<HeapWord*>(obj), _bottom); }
  oop object_at(BitMap::idx_t bit) const { return cast_to_oop(_bottom + bit); }
};

// The regions of the orphaned labels that a full GC traces: marking records
// which of their objects it reaches (from H1, roots, or the cards of other
// regions) and follows their fields within traced regions, so that a
// label's live data is known exactly. The cards of traced regions are not
// read (TeraHeapLiveness): they would make the fields of dead objects roots.
// Regions are listed by label, then address; their bits live for one pause.
// (teraHeapTrace.inline.hpp: what marking calls for every object it reaches,
// and the trace itself, for any collector's marker.)
class TeraHeapTrace : AllStatic {
  static TeraHeapRegions* _regions;
  static TeraHeapTracedRegion** _traced;                 // per region, NULL if not traced
  static GrowableArrayCHeap<uint, mtGC>* _list;          // the traced regions
  // Objects reached from outside a traced label, not followed yet.
  static Mutex* _queue_lock;
  static GrowableArrayCHeap<oop, mtGC>* _queue;
  static volatile int _queue_length;
  // The most objects a trace had waiting at once in this full GC.
  static volatile int _deepest;

  // Elements of an object array a trace follows at a time, so that an array
  // of millions costs its stack a chunk, not an entry per element.
  static const int elements_per_chunk = 512;

  static void note_depth(int depth);
  static void enqueue(oop obj);
  // One object waiting to be followed, or NULL.
  static oop take_queued();

public:
  // H2 bytes one full GC traces, but for a label larger than this, which a
  // full GC traces alone. The reached bits take a bit per word used (16 MB
  // of DRAM per GB; one bit for a large object's regions), for the pause only.
  static const size_t budget_bytes = 1 * G;

  static void initialize(TeraHeapRegions* regions);

  // Region r, of a label closed for this GC, is traced.
  static void add(uint r);
  static int length() { return _list->length(); }
  static uint region_at(int k) { return _list->at(k); }
  static const TeraHeapTracedRegion* traced(uint r) { return _traced[r]; }

  // Records obj, in start region r, as reached if r is traced; true the first
  // time. Any GC worker.
  static inline bool reach(uint r, oop obj);
  // Marking reached `obj`, in start region `r`, from outside a traced label:
  // if r is traced, obj is recorded and waits to be followed. Any GC worker.
  static inline void reached(uint r, oop obj);
  // Follows one waiting object and what it reaches within traced regions;
  // H1 objects they refer to go to `marker`, the collector's (Parallel's
  // ParCompactionManager: mark_and_push). False if none was waiting.
  template <class Marker> static inline bool trace(Marker* marker);
  static bool is_traced_region(const void* p);
  // Whether marking reached `obj`, which is in a traced region.
  static bool is_reached(oop obj);

  // Unreached objects of traced region r, which stays, on cards that the
  // collectors read become fillers: marking followed the fields of reached
  // objects only, so theirs may refer to unmarked H1 objects and freed
  // regions. Returns how many. The VM thread.
  static size_t fill_unreached(uint r);
  // Forgets the traced regions freed since they were added.
  static void forget_freed();
  // The end of the full GC: forgets every traced region.
  static void clear();
  static void log_depth();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPTRACE_HPP
