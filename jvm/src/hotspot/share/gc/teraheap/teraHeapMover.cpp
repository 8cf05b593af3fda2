/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "classfile/symbolTable.hpp"
#include "gc/parallel/parallelScavengeHeap.hpp"
#include "gc/parallel/psOldGen.hpp"
#include "gc/parallel/psYoungGen.hpp"
#include "gc/parallel/parMarkBitMap.inline.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapForwarding.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapSingletons.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/fieldStreams.inline.hpp"
#include "oops/instanceKlass.hpp"
#include "oops/objArrayKlass.inline.hpp"
#include "oops/objArrayOop.inline.hpp"
#include "runtime/handles.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/signature.hpp"
#include "utilities/copy.hpp"

// Elements of an object array followed per chunk, as the collector's own
// marking follows a chunk at a time.
static const int elements_per_chunk = 512;

static Symbol* probe_symbol(const char* s) {
  return SymbolTable::probe(s, (int)strlen(s));
}

TeraHeapMover::TeraHeapMover(TeraHeapRegions* regions) :
  _regions(regions), _singletons(NULL), _work(1024), _scratch(elements_per_chunk), _transients(),
  // NULL if no loaded class uses the name: then no class declares the method.
  _write_object_name(probe_symbol("writeObject")),
  _write_object_signature(probe_symbol("(Ljava/io/ObjectOutputStream;)V")),
  _label(0), _moving_root(false), _h2_full(false), _too_large(0), _objects(0), _words(0) {}

bool TeraHeapMover::writes_own_serial_form(InstanceKlass* ik) const {
  return _write_object_name != NULL && _write_object_signature != NULL &&
         ik->find_local_method(_write_object_name, _write_object_signature,
                               Klass::OverpassLookupMode::skip, Klass::StaticLookupMode::skip,
                               Klass::PrivateLookupMode::find) != NULL;
}

bool TeraHeapMover::can_move(oop obj) {
  if (TeraHeap::is_in_h2(obj) || !PSParallelCompact::mark_bitmap()->is_marked(obj)) {
    return false;
  }
  Klass* k = obj->klass();
  if (k->is_instance_klass()) {
    InstanceKlass* ik = InstanceKlass::cast(k);
    // Class objects and class loaders belong with the class metadata; Reference
    // objects with the reference processing that scans H1 only.
    if (ik->is_mirror_instance_klass() || ik->is_class_loader_instance_klass() ||
        ik->is_reference_instance_klass()) {
      return false;
    }
  }
  if (_moving_root) {
    return true;   // tagged by the program: it moves even if a static field refers to it
  }
  if (_singletons == NULL) {
    _singletons = new TeraHeapSingletons();
  }
  return !_singletons->contains(obj);
}

// Takes the old copy out of what the full GC will keep: its mark bits, and
// its words in the per-region live data the summary phase adds up.
void TeraHeapMover::unmark(oop old_copy, size_t words) {
  ParMarkBitMap* bitmap = PSParallelCompact::mark_bitmap();
  ParallelCompactData& sd = PSParallelCompact::summary_data();
  HeapWord* const beg = cast_from_oop<HeapWord*>(old_copy);
  HeapWord* const last = beg + words - 1;
  bitmap->clear_range(bitmap->addr_to_bit(beg), bitmap->addr_to_bit(last) + 1);

  const size_t beg_region = sd.addr_to_region_idx(beg);
  const size_t end_region = sd.addr_to_region_idx(last);
  ParallelCompactData::RegionData* first = sd.region(beg_region);
  if (beg_region == end_region) {
    first->set_live_obj_size(first->live_obj_size() - words);
    return;
  }
  first->set_live_obj_size(first->live_obj_size() - (ParallelCompactData::RegionSize - sd.region_offset(beg)));
  for (size_t r = beg_region + 1; r <= end_region; r++) {
    sd.region(r)->set_partial_obj_size(0);
    sd.region(r)->set_partial_obj_addr(NULL);
  }
}

oop TeraHeapMover::copy(oop obj) {
  if (obj->is_forwarded()) {
    return obj->forwardee();
  }
  if (_h2_full || !can_move(obj)) {
    return NULL;
  }
  const size_t words = obj->size();
  HeapWord* to = _regions->allocate(_label, words);
  if (to == NULL) {
    // No room for one region's worth: H2 is full. No run of free regions for
    // a larger object: smaller ones may still fit.
    if (words <= _regions->region_words()) {
      _h2_full = true;
    } else {
      _too_large++;
    }
    return NULL;
  }
  // The mark word goes along: identity hash, lock state and age stay as they were.
  Copy::aligned_disjoint_words(cast_from_oop<HeapWord*>(obj), to, words);
  oop moved = cast_to_oop(to);
  _regions->object_starts()->record(to);
  _regions->record_klass(_regions->index_of(to), obj->klass());
  // Its fields still refer to H1 until followed; the full GC's adjust step
  // reads these cards and settles their states.
  TeraHeapCards::dirty_range(MemRegion(to, words));
  obj->forward_to(moved);
  TeraHeapForwarding::record(obj, moved);
  unmark(obj, words);
  _objects++;
  _words += words;
  push_fields(moved);
  return moved;
}

GrowableArray<int>* TeraHeapMover::transient_offsets(Klass* k) {
  GrowableArray<int>** cached = _transients.get(k);
  if (cached != NULL) {
    return *cached;
  }
  GrowableArray<int>* offsets = new GrowableArray<int>(0);
  for (InstanceKlass* ik = InstanceKlass::cast(k); ik != NULL; ik = ik->java_super()) {
    // A class with its own writeObject serializes its transient fields by hand
    // (java.util.HashMap's and Scala's HashMap's tables, ArrayList's elements):
    // they are part of the data and move with it.
    if (writes_own_serial_form(ik)) {
      continue;
    }
    for (JavaFieldStream fs(ik); !fs.done(); fs.next()) {
      if (!fs.access_flags().is_static() && fs.access_flags().is_transient() &&
          is_reference_type(Signature::basic_type(fs.signature()))) {
        offsets->append(fs.offset());
      }
    }
  }
  _transients.put(k, offsets);
  return offsets;
}

// Pushes the slots of an H2 copy's fields that lead into H1; references to
// H2 are recorded as region dependencies at once. Same label: recorded for
// good. Another label: the card (dirty since the copy) keeps the link, and
// the adjust step keeps the card non-clean.
class TeraHeapPushFieldsClosure : public BasicOopIterateClosure {
  TeraHeapRegions* _regions;
  GrowableArray<void*>* _slots;
  address _base;
  uint _region;
  GrowableArray<int>* _transient;

public:
  TeraHeapPushFieldsClosure(TeraHeapRegions* regions, GrowableArray<void*>* slots, oop copy,
                            GrowableArray<int>* transient) :
    _regions(regions), _slots(slots), _base(cast_from_oop<address>(copy)),
    _region(regions->index_of(copy)), _transient(transient) {}

  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop target = CompressedOops::decode_not_null(heap_oop);
    if (TeraHeap::is_in_h2(target)) {
      _regions->add_dependency(_region, _regions->index_of(target));
    } else if (_transient == NULL || !_transient->contains((int)((address)p - _base))) {
      _slots->push(p);
    }   // else a transient field: its target stays in H1, a backward reference
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// The fields are pushed so that the first is popped first: a group is laid out
// depth-first, in the order a program walking it (or a serializer) visits it,
// so that a scan over a moved partition reads H2 front to back, which the
// kernel's read-ahead serves well when H2 is paged.
void TeraHeapMover::push_fields(oop copy) {
  Klass* k = copy->klass();
  if (k->is_objArray_klass()) {
    push_elements(objArrayOop(copy), 0);
    return;
  }
  GrowableArray<int>* transient = NULL;
  if (k->is_instance_klass()) {
    transient = transient_offsets(k);
    if (transient->is_empty()) {
      transient = NULL;
    }
  }
  _scratch.clear();
  TeraHeapPushFieldsClosure cl(_regions, &_scratch, copy, transient);
  copy->oop_iterate(&cl);
  for (int i = _scratch.length() - 1; i >= 0; i--) {
    _work.push(Work{_scratch.at(i), -1});
  }
}

// Elements [from, from + a chunk) go on top of the rest of the array, so
// element order, and depth-first order, are kept.
void TeraHeapMover::push_elements(objArrayOop copy, int from) {
  const int end = MIN2(copy->length(), from + elements_per_chunk);
  if (end < copy->length()) {
    _work.push(Work{(void*)copy, end});
  }
  _scratch.clear();
  TeraHeapPushFieldsClosure cl(_regions, &_scratch, copy, NULL);
  copy->oop_iterate_range(&cl, from, end);
  for (int i = _scratch.length() - 1; i >= 0; i--) {
    _work.push(Work{_scratch.at(i), -1});
  }
}

template <class T> void TeraHeapMover::move_field(T* p) {
  const T heap_oop = RawAccess<IS_NOT_NULL>::oop_load(p);
  oop target = CompressedOops::decode_not_null(heap_oop);
  if (!TeraHeap::is_in_h2(target)) {
    oop moved = copy(target);
    if (moved == NULL) {
      return;   // stays in H1: a backward reference
    }
    RawAccess<IS_NOT_NULL>::oop_store(p, moved);
    target = moved;
  }
  _regions->add_dependency(_regions->index_of(p), _regions->index_of(target));
}

bool TeraHeapMover::move_group(oop root, jlong label) {
  _label = label;
  const size_t too_large = _too_large;
  _moving_root = true;
  copy(root);
  _moving_root = false;
  while (_work.is_nonempty()) {
    const Work w = _work.pop();
    if (w.index >= 0) {
      push_elements(objArrayOop(cast_to_oop(w.slot_or_array)), w.index);
    } else if (UseCompressedOops) {
      move_field((narrowOop*)w.slot_or_array);
    } else {
      move_field((oop*)w.slot_or_array);
    }
  }
  return !_h2_full && _too_large == too_large;
}

class TeraHeapRedirectClosure : public BasicOopIterateClosure {
public:
  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop o = CompressedOops::decode_not_null(heap_oop);
    // Live H1 objects are marked; an unmarked one that is referenced moved to H2.
    if (!TeraHeap::is_in_h2(o) && !PSParallelCompact::mark_bitmap()->is_marked(o) && o->is_forwarded()) {
      RawAccess<IS_NOT_NULL>::oop_store(p, o->forwardee());
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

static void redirect_in(MutableSpace* space, TeraHeapRedirectClosure* cl) {
  ParMarkBitMap* bitmap = PSParallelCompact::mark_bitmap();
  HeapWord* const top = space->top();
  for (HeapWord* p = bitmap->find_obj_beg(space->bottom(), top); p < top;
       p = bitmap->find_obj_beg(p + cast_to_oop(p)->size(), top)) {
    cast_to_oop(p)->oop_iterate(cl);
  }
}

void TeraHeapMover::redirect_h1_references() {
  ParallelScavengeHeap* heap = ParallelScavengeHeap::heap();
  TeraHeapRedirectClosure cl;
  redirect_in(heap->old_gen()->object_space(), &cl);
  redirect_in(heap->young_gen()->eden_space(), &cl);
  redirect_in(heap->young_gen()->from_space(), &cl);
  redirect_in(heap->young_gen()->to_space(), &cl);
}
