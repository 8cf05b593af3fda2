/*
 * Orphaned labels traced, and sparse ones copied out, at full GCs.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/parallelScavengeHeap.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapMoveBuffers.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "memory/resourceArea.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/objArrayKlass.inline.hpp"
#include "oops/objArrayOop.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
#include "runtime/globals.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "runtime/os.hpp"
#include "utilities/bitMap.inline.hpp"
#include "utilities/copy.hpp"

// H2 bytes one full GC may trace: its reached bits take a bit per word used
// (16 MB of DRAM per GB), for the pause only.
static const size_t trace_budget_bytes = 1 * G;
// An orphaned label is traced again after this many full GCs at most.
static const uint longest_trace_interval = 64;
// Elements of an object array a trace follows at a time, so that an array of
// millions costs the stack a chunk, not an entry per element.
static const int trace_elements_per_chunk = 512;

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

// When an orphaned label is next traced.
struct TeraHeapOrphan {
  jlong label;
  uint  next_gc;    // the full GC that traces it
  uint  interval;   // full GCs between traces, doubling
};

static int compare_orphans(const TeraHeapOrphan& a, const TeraHeapOrphan& b) {
  return a.label < b.label ? -1 : (a.label > b.label ? 1 : 0);
}
static int compare_labels(const jlong& a, const jlong& b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// A tagged root in H2, and whether this full GC's marking from roots reached it.
struct TeraHeapH2Root {
  HeapWord* addr;
  bool      reached;
};
typedef GrowableArrayCHeap<TeraHeapH2Root, mtGC> TeraHeapH2RootList;

static int compare_root_to(HeapWord* const& a, const TeraHeapH2Root& b) {
  return a < b.addr ? -1 : (a > b.addr ? 1 : 0);
}
static int compare_roots(const TeraHeapH2Root& a, const TeraHeapH2Root& b) {
  return compare_root_to(a.addr, b);
}

static TeraHeapRegions* _regions = NULL;
static uint _full_gcs = 0;
static uint _stress_evacuations = 0;   // -XX:+TeraHeapStressEvacuationFailure's count

// Per region (all NULL or false between full GCs, but the roots).
static TeraHeapTracedRegion** _traced = NULL;
static TeraHeapH2RootList** _roots = NULL;   // tagged roots in it, sorted
static bool* _evacuating = NULL;
// From prepare() to the end of the marking from roots: marking has read no
// H2 card yet, so a root it reaches is held from outside H2 (see note_root).
static volatile bool _counting_roots = false;

static GrowableArrayCHeap<uint, mtGC>* _traced_list = NULL;      // by label, then address
static GrowableArrayCHeap<uint, mtGC>* _rooted_regions = NULL;   // regions with a roots list
static GrowableArrayCHeap<uint, mtGC>* _evacuating_list = NULL;
static GrowableArrayCHeap<uint, mtGC>* _evacuated_list = NULL;   // to free once adjusted
static GrowableArrayCHeap<jlong, mtGC>* _held_labels = NULL;     // sorted
static GrowableArrayCHeap<TeraHeapOrphan, mtGC>* _orphans = NULL;  // sorted by label

// Objects reached from outside a traced label, not followed yet.
static Mutex* _queue_lock = NULL;
static GrowableArrayCHeap<oop, mtGC>* _queue = NULL;
static volatile int _queue_length = 0;
// The most objects a trace had waiting at once in this full GC.
static volatile int _deepest_trace = 0;

static size_t _objects_evacuated = 0;
static size_t _words_evacuated = 0;
static uint _labels_evacuated = 0;

bool TeraHeapEvacuation::enabled() {
  return _regions != NULL;
}

void TeraHeapEvacuation::initialize(TeraHeapRegions* regions) {
  if (TeraHeapEvacuationLiveThresholdPercent == 0) {
    return;
  }
  const uint n = regions->count();
  _traced = NEW_C_HEAP_ARRAY(TeraHeapTracedRegion*, n, mtGC);
  _roots = NEW_C_HEAP_ARRAY(TeraHeapH2RootList*, n, mtGC);
  _evacuating = NEW_C_HEAP_ARRAY(bool, n, mtGC);
  for (uint i = 0; i < n; i++) {
    _traced[i] = NULL;
    _roots[i] = NULL;
    _evacuating[i] = false;
  }
  _traced_list = new GrowableArrayCHeap<uint, mtGC>(16);
  _rooted_regions = new GrowableArrayCHeap<uint, mtGC>(16);
  _evacuating_list = new GrowableArrayCHeap<uint, mtGC>(16);
  _evacuated_list = new GrowableArrayCHeap<uint, mtGC>(16);
  _held_labels = new GrowableArrayCHeap<jlong, mtGC>(16);
  _orphans = new GrowableArrayCHeap<TeraHeapOrphan, mtGC>(16);
  _queue = new GrowableArrayCHeap<oop, mtGC>(64);
  _queue_lock = new Mutex(Mutex::leaf, "TeraHeapEvacuation_lock", true, Mutex::_safepoint_check_never);
  _regions = regions;
}

static TeraHeapOrphan* find_orphan(jlong label) {
  bool found;
  const int at = _orphans->find_sorted<TeraHeapOrphan, compare_orphans>(TeraHeapOrphan{label, 0, 0}, found);
  return found ? _orphans->adr_at(at) : NULL;
}

struct TeraHeapLabelRegion {
  jlong label;
  uint  region;
};

static int compare_label_regions(TeraHeapLabelRegion* a, TeraHeapLabelRegion* b) {
  if (a->label != b->label) {
    return a->label < b->label ? -1 : 1;
  }
  return a->region < b->region ? -1 : (a->region > b->region ? 1 : 0);
}

void TeraHeapEvacuation::prepare() {
  if (!enabled()) {
    return;
  }
  _full_gcs++;
  for (int k = 0; k < _rooted_regions->length(); k++) {
    TeraHeapH2RootList* roots = _roots[_rooted_regions->at(k)];
    for (int j = 0; j < roots->length(); j++) {
      roots->adr_at(j)->reached = false;
    }
  }
  _counting_roots = true;
  if (_orphans->is_empty()) {
    return;
  }
  // The regions of the orphaned labels due for a trace, label by label.
  ResourceMark rm;
  GrowableArray<TeraHeapLabelRegion> due;
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const uint r = _regions->in_use_region(k);
    const TeraHeapOrphan* o = find_orphan(_regions->label(r));
    if (o != NULL && o->next_gc <= _full_gcs) {
      due.append(TeraHeapLabelRegion{_regions->label(r), r});
    }
  }
  due.sort(compare_label_regions);
  size_t budget = trace_budget_bytes;
  for (int a = 0, b; a < due.length(); a = b) {
    const jlong label = due.at(a).label;
    bool spans = false;
    size_t used = 0;
    for (b = a; b < due.length() && due.at(b).label == label; b++) {
      const uint r = due.at(b).region;
      used += _regions->used(r).byte_size();
      spans |= _regions->used(r).word_size() > _regions->region_words();
    }
    TeraHeapOrphan* o = find_orphan(label);
    if (spans) {
      // An object larger than a region: not traced while the label holds one,
      // looked at again with the back-off, so that the label is traced once
      // that object's regions are freed.
      o->next_gc = _full_gcs + o->interval;
      o->interval = MIN2(o->interval * 2, longest_trace_interval);
      continue;
    }
    if (used > budget) {
      continue;   // stays due: a later full GC has the budget
    }
    budget -= used;
    o->next_gc = _full_gcs + o->interval;
    o->interval = MIN2(o->interval * 2, longest_trace_interval);
    // Groups of this label moved from H1 in this GC go to fresh regions.
    _regions->close_label(label);
    for (int j = a; j < b; j++) {
      const uint r = due.at(j).region;
      // Bits for what the region holds: nothing is added to a closed label's regions.
      _traced[r] = new TeraHeapTracedRegion(_regions->bottom(r), _regions->used(r).word_size());
      _traced_list->append(r);
    }
  }
  if (!_traced_list->is_empty()) {
    log_debug(gc, teraheap)("Tracing %d regions of orphaned labels (" SIZE_FORMAT "M)",
                            _traced_list->length(), (trace_budget_bytes - budget) / M);
  }
}

// Notes a tagged root reached, while only the marking from roots (stacks,
// JNI handles, class data, and what they reach in H1, traces included) has
// run. A root reached only later, through a live region's cards, may be held
// by its own group: a field of a dropped group that the program wrote after
// the move (HashMap's cached values() view, a young object) leads to an H1
// object that leads back to the group's root. Such a root does not hold its
// label, whose next trace then decides object by object.
static void note_root(uint r, oop obj) {
  TeraHeapH2RootList* roots = _roots[r];
  if (roots == NULL || !Atomic::load(&_counting_roots)) {
    return;
  }
  bool found;
  const int at = roots->find_sorted<HeapWord*, compare_root_to>(cast_from_oop<HeapWord*>(obj), found);
  if (found && !Atomic::load(&roots->adr_at(at)->reached)) {
    Atomic::store(&roots->adr_at(at)->reached, true);
  }
}

void TeraHeapEvacuation::end_marking_from_roots() {
  Atomic::store(&_counting_roots, false);
}

// Records obj if its region is traced; true the first time.
static bool reach(uint r, oop obj) {
  TeraHeapTracedRegion* t = _traced[r];
  return t != NULL && t->reached.par_set_bit(t->bit(obj));
}

void TeraHeapEvacuation::reached(oop obj) {
  if (!enabled()) {
    return;
  }
  const uint r = _regions->index_of(obj);
  note_root(r, obj);
  if (reach(r, obj)) {
    MutexLocker ml(_queue_lock, Mutex::_no_safepoint_check_flag);
    _queue->push(obj);
    Atomic::release_store(&_queue_length, _queue->length());
  }
}

// An object to follow, or an object array to follow from element `from` on.
struct TeraHeapTraceWork {
  oop obj;
  int from;
};
typedef GrowableArrayCHeap<TeraHeapTraceWork, mtGC> TeraHeapTraceStack;

// Follows a traced object's fields: H1 referents are marked, traced H2
// referents followed in turn, other H2 referents' regions made live.
class TeraHeapTraceClosure : public BasicOopIterateClosure {
  ParCompactionManager* _cm;
  TeraHeapTraceStack* _stack;
public:
  TeraHeapTraceClosure(ParCompactionManager* cm, TeraHeapTraceStack* stack) :
    _cm(cm), _stack(stack) {}

  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop o = CompressedOops::decode_not_null(heap_oop);
    if (!TeraHeapAddressSpace::contains(o)) {
      _cm->mark_and_push(p);
      return;
    }
    _regions->mark_live(_regions->raw_index_of(o));
    const uint r = _regions->index_of(o);
    note_root(r, o);
    if (reach(r, o)) {
      _stack->push(TeraHeapTraceWork{o, 0});
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

static void note_trace_depth(int depth) {
  int deepest = Atomic::load(&_deepest_trace);
  while (depth > deepest) {
    const int seen = Atomic::cmpxchg(&_deepest_trace, deepest, depth);
    if (seen == deepest) {
      return;
    }
    deepest = seen;
  }
}

bool TeraHeapEvacuation::trace(ParCompactionManager* cm) {
  if (!enabled() || Atomic::load_acquire(&_queue_length) == 0) {
    return false;
  }
  TeraHeapTraceStack stack(64);
  {
    MutexLocker ml(_queue_lock, Mutex::_no_safepoint_check_flag);
    if (_queue->is_empty()) {
      return false;
    }
    stack.push(TeraHeapTraceWork{_queue->pop(), 0});
    Atomic::release_store(&_queue_length, _queue->length());
  }
  TeraHeapTraceClosure cl(cm, &stack);
  int deepest = 0;
  while (stack.is_nonempty()) {
    deepest = MAX2(deepest, stack.length());
    const TeraHeapTraceWork w = stack.pop();
    if (w.from == 0) {
      Atomic::add(&_traced[_regions->index_of(w.obj)]->live_words, (size_t)w.obj->size());
    }
    if (!w.obj->is_objArray()) {
      w.obj->oop_iterate(&cl);
      continue;
    }
    // The rest of the array waits below the chunk's elements.
    const objArrayOop a = objArrayOop(w.obj);
    const int end = MIN2(a->length(), w.from + trace_elements_per_chunk);
    if (end < a->length()) {
      stack.push(TeraHeapTraceWork{a, end});
    }
    a->oop_iterate_range(&cl, w.from, end);
  }
  note_trace_depth(deepest);
  return true;
}

bool TeraHeapEvacuation::is_traced_region(const void* p) {
  return enabled() && _traced[_regions->index_of(p)] != NULL;
}

bool TeraHeapEvacuation::is_reached(oop obj) {
  const TeraHeapTracedRegion* t = _traced[_regions->index_of(obj)];
  return t->reached.at(t->bit(obj));
}

// Root lists of regions freed since they were made.
static void forget_freed_roots() {
  int kept = 0;
  for (int k = 0; k < _rooted_regions->length(); k++) {
    const uint r = _rooted_regions->at(k);
    if (_regions->in_use(r)) {
      _rooted_regions->at_put(kept++, r);
    } else {
      delete _roots[r];
      _roots[r] = NULL;
    }
  }
  _rooted_regions->trunc_to(kept);
}

// Before anything is moved into them again: a freed region may be opened for
// another label in this same GC.
void TeraHeapEvacuation::forget_freed_regions() {
  if (!enabled()) {
    return;
  }
  int kept = 0;
  for (int k = 0; k < _traced_list->length(); k++) {
    const uint r = _traced_list->at(k);
    if (_regions->in_use(r)) {
      _traced_list->at_put(kept++, r);
    } else {
      delete _traced[r];
      _traced[r] = NULL;
    }
  }
  _traced_list->trunc_to(kept);
  forget_freed_roots();
}

// A root that just moved or was copied: live in this GC, so it holds its label.
static void add_root(oop root) {
  const uint r = _regions->index_of(root);
  if (_roots[r] == NULL) {
    _roots[r] = new TeraHeapH2RootList(4);
    _rooted_regions->append(r);
  }
  _roots[r]->insert_sorted<compare_roots>(TeraHeapH2Root{cast_from_oop<HeapWord*>(root), true});
}

void TeraHeapEvacuation::note_moved_root(oop copy) {
  if (enabled()) {
    add_root(copy);
  }
}

bool TeraHeapEvacuation::is_evacuating(const void* p) {
  return enabled() && _evacuating[_regions->index_of(p)];
}

// A label chosen for evacuation: its traced regions are [a, b) of _traced_list.
struct TeraHeapEvacuatedLabel {
  jlong         label;
  int           a;
  int           b;
  volatile bool complete;   // every reached object was copied
  size_t        room;       // words it may copy before H2 runs out: SIZE_MAX but when testing
  volatile size_t claimed;  // words it copied, counted only when room is limited
};

// A traced region to copy: its index in _traced_list, and its label's in the chosen labels.
struct TeraHeapEvacuatedRegion {
  int traced;
  int label;
};

// Copies the reached objects of the chosen labels' traced regions on all GC
// workers: each worker takes the next traced region and copies its objects,
// in address order, through its own buffers into fresh regions of the label
// (so a region's objects stay in their depth-first order). Objects are never
// shared between workers, so forwarding takes no atomics. If H2 runs out of
// room, what is not copied stays where it is, its cards dirtied so that the
// adjust phase points it at what did move, and the label keeps its regions.
class TeraHeapEvacuateTask : public AbstractGangTask {
  GrowableArray<TeraHeapEvacuatedLabel>*  _labels;
  GrowableArray<TeraHeapEvacuatedRegion>* _regions_to_copy;
  volatile int        _next;
  volatile size_t     _objects;
  volatile size_t     _words;

  static bool has_room(TeraHeapEvacuatedLabel* l, size_t size) {
    return l->room == SIZE_MAX || Atomic::add(&l->claimed, size) <= l->room;
  }

  void copy_region(TeraHeapMoveBuffers* buffers, TeraHeapEvacuatedLabel* l, const TeraHeapTracedRegion* t,
                   size_t* objects, size_t* words) {
    uint last_region = UINT_MAX;
    Klass* last_klass = NULL;
    const BitMap::idx_t end = t->reached.size();
    for (BitMap::idx_t i = t->reached.get_next_one_offset(0); i < end; i = t->reached.get_next_one_offset(i + 1)) {
      oop obj = t->object_at(i);
      const size_t size = obj->size();
      HeapWord* to = Atomic::load(&l->complete) && has_room(l, size) ? buffers->allocate(l->label, size) : NULL;
      if (to == NULL) {
        Atomic::store(&l->complete, false);
        TeraHeapCards::dirty_range(MemRegion(cast_from_oop<HeapWord*>(obj), size));
        continue;
      }
      // The mark word goes along: identity hash and lock state stay.
      Copy::aligned_disjoint_words(cast_from_oop<HeapWord*>(obj), to, size);
      _regions->object_starts()->record(to);
      const uint region = _regions->index_of(to);
      if (region != last_region || obj->klass() != last_klass) {
        _regions->record_klass(region, obj->klass());
        last_region = region;
        last_klass = obj->klass();
      }
      // Its fields refer to old copies and to H1 until the adjust phase reads these cards.
      TeraHeapCards::dirty_range(MemRegion(to, size));
      obj->forward_to(cast_to_oop(to));
      (*objects)++;
      *words += size;
    }
  }

public:
  TeraHeapEvacuateTask(GrowableArray<TeraHeapEvacuatedLabel>* labels,
                       GrowableArray<TeraHeapEvacuatedRegion>* regions_to_copy) :
    AbstractGangTask("TeraHeap Evacuate"), _labels(labels), _regions_to_copy(regions_to_copy),
    _next(0), _objects(0), _words(0) {}

  void work(uint worker_id) {
    ResourceMark rm;   // the buffers' list
    TeraHeapMoveBuffers buffers(_regions);
    size_t objects = 0;
    size_t words = 0;
    for (int k = Atomic::fetch_and_add(&_next, 1); k < _regions_to_copy->length(); k = Atomic::fetch_and_add(&_next, 1)) {
      const TeraHeapEvacuatedRegion& r = _regions_to_copy->at(k);
      copy_region(&buffers, _labels->adr_at(r.label), _traced[_traced_list->at(r.traced)], &objects, &words);
    }
    buffers.retire_all();
    Atomic::add(&_objects, objects);
    Atomic::add(&_words, words);
  }

  size_t objects() const { return _objects; }
  size_t words() const { return _words; }
};

// A traced object that marking did not reach: garbage, though its region may stay.
static bool unreached(oop obj) {
  return !TeraHeapEvacuation::is_reached(obj);
}

size_t TeraHeapEvacuation::evacuate() {
  if (!enabled() || _traced_list->is_empty()) {
    return 0;
  }
  log_debug(gc, teraheap)("Tracing had at most %d objects waiting at once", Atomic::load(&_deepest_trace));
  Atomic::store(&_deepest_trace, 0);
  ResourceMark rm;
  GrowableArray<TeraHeapEvacuatedLabel> chosen;
  size_t free_regions = _regions->count() - _regions->regions_in_use();
  // The stress test's H2 fills up halfway through every other evacuation's
  // copies, so that a label it stops is evacuated again at its next trace.
  const bool stress_stop = TeraHeapStressEvacuationFailure && _stress_evacuations % 2 == 0;
  for (int a = 0, b; a < _traced_list->length(); a = b) {
    const jlong label = _regions->label(_traced_list->at(a));
    size_t used = 0;
    size_t live = 0;
    for (b = a; b < _traced_list->length() && _regions->label(_traced_list->at(b)) == label; b++) {
      const uint r = _traced_list->at(b);
      used += _regions->used(r).word_size();
      live += Atomic::load(&_traced[r]->live_words);
    }
    // Each worker may leave a buffer's worth unused per label: room for twice the live data.
    const size_t needed = 2 * (live / _regions->region_words()) + 2;
    // The stress mode evacuates every traced label, so that any program runs evacuations.
    const bool sparse = live * 100 < TeraHeapEvacuationLiveThresholdPercent * used || TeraHeapStressMove;
    // A group of the label moving from H1 in this GC does not keep it: it went
    // to fresh regions (prepare closed the label), and its references to the
    // label's traced objects are on dirty cards, adjusted to their copies.
    log_debug(gc, teraheap)("Label " JLONG_FORMAT ": " SIZE_FORMAT "K live in " SIZE_FORMAT "K of %d regions%s",
                            label, live * HeapWordSize / K, used * HeapWordSize / K, b - a,
                            !sparse ? ", dense: kept" :
                            (free_regions < needed ? ", no free regions to copy into: kept" : ", evacuated"));
    if (sparse && free_regions >= needed) {
      free_regions -= needed;
      chosen.append(TeraHeapEvacuatedLabel{label, a, b, true, stress_stop ? live / 2 : SIZE_MAX, 0});
    }
  }
  size_t objects = 0;
  if (chosen.is_nonempty()) {
    if (TeraHeapStressEvacuationFailure) {
      _stress_evacuations++;
    }
    GrowableArray<TeraHeapEvacuatedRegion> regions_to_copy;
    for (int n = 0; n < chosen.length(); n++) {
      for (int k = chosen.at(n).a; k < chosen.at(n).b; k++) {
        const uint r = _traced_list->at(k);
        _evacuating[r] = true;
        _evacuating_list->append(r);
        regions_to_copy.append(TeraHeapEvacuatedRegion{k, n});
      }
    }
    TeraHeapEvacuateTask task(&chosen, &regions_to_copy);
    ParallelScavengeHeap::heap()->workers().run_task(&task);
    for (int n = 0; n < chosen.length(); n++) {
      const TeraHeapEvacuatedLabel& l = chosen.at(n);
      for (int k = l.a; k < l.b; k++) {
        const uint r = _traced_list->at(k);
        if (l.complete) {
          _regions->set_has_cards(r, false);   // nothing live is left to adjust
          _evacuated_list->append(r);
        } else {
          _regions->set_has_cards(r, true);
        }
      }
      if (!l.complete) {
        log_info(gc, teraheap)("H2 had no room to evacuate label " JLONG_FORMAT ": its regions stay", l.label);
      } else {
        // Other groups of the label may be dropped next: trace it again soon.
        TeraHeapOrphan* o = find_orphan(l.label);
        if (o != NULL) {
          o->next_gc = _full_gcs + 1;
          o->interval = 1;
        }
      }
      _labels_evacuated += l.complete ? 1 : 0;
    }
    _objects_evacuated += task.objects();
    _words_evacuated += task.words();
    objects = task.objects();
  }
  // The traced regions that stay (their label was kept, or H2 had no room to
  // finish its copy). Marking followed the fields of their reached objects
  // only, not their cards (TeraHeapLiveness), so an unreached object there
  // may refer to H1 objects that were not marked and to regions that were
  // freed. It is garbage: where a collector would read its fields (a card
  // that is not clean), it becomes a filler of its size.
  size_t filled = 0;
  for (int k = 0; k < _traced_list->length(); k++) {
    const uint r = _traced_list->at(k);
    if (!_evacuated_list->contains(r)) {
      filled += TeraHeapCards::fill_dead_objects(_regions, r, unreached);
    }
  }
  if (filled > 0) {
    log_debug(gc, teraheap)("Dead objects of traced regions that stay, on cards the collectors read: " SIZE_FORMAT
                            " made fillers", filled);
  }
  return objects;
}

// Whether every tagged root in H2 of a label was reached by the marking from roots.
static void note_held_labels() {
  ResourceMark rm;
  GrowableArray<jlong> not_held;
  _held_labels->clear();
  for (int k = 0; k < _rooted_regions->length(); k++) {
    const uint r = _rooted_regions->at(k);
    const TeraHeapH2RootList* roots = _roots[r];
    bool all = true;
    for (int j = 0; j < roots->length() && all; j++) {
      all = roots->at(j).reached;
    }
    if (roots->is_empty()) {
      continue;
    }
    if (all) {
      _held_labels->insert_sorted<compare_labels>(_regions->label(r));
    } else {
      not_held.insert_sorted<compare_labels>(_regions->label(r));
    }
  }
  for (int k = 0; k < not_held.length(); k++) {
    bool found;
    const int at = _held_labels->find_sorted<jlong, compare_labels>(not_held.at(k), found);
    if (found) {
      _held_labels->remove_at(at);
    }
  }
}

size_t TeraHeapEvacuation::finish() {
  if (!enabled()) {
    return 0;
  }
  // Roots in evacuated regions follow their copies. Those not copied stay on
  // their region's list: dead with it if it is freed below, else still there.
  for (int k = 0; k < _evacuating_list->length(); k++) {
    const uint r = _evacuating_list->at(k);
    TeraHeapH2RootList* roots = _roots[r];
    int kept = 0;
    for (int j = 0; roots != NULL && j < roots->length(); j++) {
      oop root = cast_to_oop(roots->at(j).addr);
      if (root->is_forwarded()) {
        assert(_regions->index_of(root->forwardee()) != r, "copies go to fresh regions");
        add_root(root->forwardee());
      } else {
        roots->at_put(kept++, roots->at(j));
      }
    }
    if (roots != NULL) {
      roots->trunc_to(kept);
    }
  }
  size_t freed = 0;
  if (_evacuated_list->is_nonempty()) {
    for (int k = 0; k < _evacuated_list->length(); k++) {
      _regions->set_dead(_evacuated_list->at(k));
    }
    freed = _regions->free_dead_regions();
    log_info(gc, teraheap)("Evacuated " SIZE_FORMAT " objects (" SIZE_FORMAT "K) of %u sparse labels; freed "
                           SIZE_FORMAT " regions", _objects_evacuated, _words_evacuated * HeapWordSize / K,
                           _labels_evacuated, freed);
  }
  forget_freed_roots();
  // A trace is exact: a root in a traced region that stays, which marking did
  // not reach, is garbage (and was made a filler if a collector reads it).
  // Forgotten, it no longer makes its label look dropped at every full GC.
  for (int k = 0; k < _traced_list->length(); k++) {
    const uint r = _traced_list->at(k);
    TeraHeapH2RootList* roots = _roots[r];
    if (roots == NULL || !_regions->in_use(r)) {
      continue;
    }
    int kept = 0;
    for (int j = 0; j < roots->length(); j++) {
      if (is_reached(cast_to_oop(roots->at(j).addr))) {
        roots->at_put(kept++, roots->at(j));
      }
    }
    roots->trunc_to(kept);
  }
  _objects_evacuated = _words_evacuated = 0;
  _labels_evacuated = 0;
  for (int k = 0; k < _evacuating_list->length(); k++) {
    _evacuating[_evacuating_list->at(k)] = false;
  }
  _evacuating_list->clear();
  _evacuated_list->clear();
  for (int k = 0; k < _traced_list->length(); k++) {
    delete _traced[_traced_list->at(k)];
    _traced[_traced_list->at(k)] = NULL;
  }
  _traced_list->clear();

  // A label is held when the marking from roots reached every one of its
  // tagged roots in H2. The others are orphaned, traced when due: a label
  // with no root left, one of whose groups the program dropped (the label
  // may be reused for new groups: its regions link the old groups to the new
  // through the region they share), or whose roots were reached only through
  // H2 (possibly through their own group's cards).
  note_held_labels();
  GrowableArrayCHeap<TeraHeapOrphan, mtGC>* orphans = new GrowableArrayCHeap<TeraHeapOrphan, mtGC>(16);
  for (int k = 0; k < _regions->in_use_count(); k++) {
    const jlong label = _regions->label(_regions->in_use_region(k));
    bool found;
    _held_labels->find_sorted<jlong, compare_labels>(label, found);
    if (found) {
      continue;
    }
    const TeraHeapOrphan* known = find_orphan(label);
    orphans->insert_sorted<compare_orphans>(known != NULL ? *known : TeraHeapOrphan{label, _full_gcs + 1, 1});
  }
  delete _orphans;
  _orphans = orphans;
  return freed;
}
