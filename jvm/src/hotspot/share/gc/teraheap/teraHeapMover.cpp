/*
 * One group moved into H2.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "classfile/symbolTable.hpp"
#include "gc/shared/cardTable.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "gc/teraheap/teraHeapEvacuation.hpp"
#include "gc/teraheap/teraHeapMover.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapSingletons.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/fieldStreams.inline.hpp"
#include "oops/instanceKlass.hpp"
#include "oops/objArrayKlass.inline.hpp"
#include "oops/objArrayOop.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
#include "runtime/handles.inline.hpp"
#include "runtime/orderAccess.hpp"
#include "runtime/signature.hpp"
#include "utilities/copy.hpp"

// Elements of an object array followed per chunk, as the collector's own
// marking follows a chunk at a time.
static const int elements_per_chunk = 512;

// Words a mover copies between updates of the shared count.
static const size_t words_per_count = 64 * K;

static Symbol* probe_symbol(const char* s) {
  return SymbolTable::probe(s, (int)strlen(s));
}

TeraHeapMover::TeraHeapMover(TeraHeapRegions* regions, const TeraHeapSingletons* singletons,
                             TeraHeapMoveShared* shared) :
  _collector(TeraHeapCollector::current()), _regions(regions), _singletons(singletons), _shared(shared),
  _buffers(regions),
  _work(1024), _scratch(elements_per_chunk), _next_recent(0), _transients(),
  // NULL if no loaded class uses the name: then no class declares the method.
  _write_object_name(probe_symbol("writeObject")),
  _write_object_signature(probe_symbol("(Ljava/io/ObjectOutputStream;)V")),
  _label(0), _moving_root(false), _left_behind(0), _outside_set(0), _too_large(0), _objects(0), _words(0),
  _words_counted(0) {
  memset(_recorded, 0, sizeof(_recorded));
  memset(_recent_cards, 0, sizeof(_recent_cards));
}

// Whether the pair is news to this mover: a small direct-mapped memory of
// pairs seen, since an object's class and its region mostly repeat.
bool TeraHeapMover::is_new(uintptr_t a, uintptr_t b) {
  const uintptr_t h = (a * 31 + (b >> 3)) * 0x9E3779B97F4A7C15ULL;
  Recorded* slot = &_recorded[(h >> 32) % recorded_slots];
  if (slot->a == a && slot->b == b) {
    return false;
  }
  slot->a = a;
  slot->b = b;
  return true;
}

void TeraHeapMover::record_klass(uint region, Klass* k) {
  // A region index with the top bit set never equals a dependency's.
  if (is_new((uintptr_t)region | ((uintptr_t)1 << 63), (uintptr_t)k)) {
    _regions->record_klass(region, k);
  }
}

void TeraHeapMover::record_dependency(uint from, uint to) {
  if (from != to && is_new(from, to)) {
    _regions->add_dependency_locked(from, to);
  }
}

template <class T> void TeraHeapMover::link(T* p, oop target) {
  const uint from = _regions->index_of(p);
  const uint to = _regions->index_of(target);
  if (_regions->same_label(from, to) && !TeraHeapEvacuation::is_traced_region(target)) {
    record_dependency(from, to);
  } else {
    keep_on_card(p);
  }
}

// A field per card is listed, not every field: the list then grows with the
// cards written (a card covers 512 bytes), whereas a group of small objects
// that each refer to a shared H1 object (a cached Integer, a Scala None)
// would list a pointer per object, DRAM in proportion to the objects moved.
void TeraHeapMover::keep_on_card(void* p) {
  if (TeraHeapCards::dirty_field_if_backed(p)) {
    return;
  }
  const uintptr_t card = (uintptr_t)p >> CardTable::card_shift;
  for (int i = 0; i < recent_cards; i++) {
    if (_recent_cards[i] == card) {
      return;
    }
  }
  _recent_cards[_next_recent] = card;
  _next_recent = (_next_recent + 1) % recent_cards;
  _unbacked_fields.append(p);
}

void TeraHeapMover::finish() {
  _buffers.retire_all();
  _shared->add_unbacked_fields(&_unbacked_fields);
}

TeraHeapMoveShared::TeraHeapMoveShared() :
  _lock(new Mutex(Mutex::leaf, "TeraHeapMoveShared_lock", true, Mutex::_safepoint_check_never)),
  h2_full(false), words_moved(0) {}

TeraHeapMoveShared::~TeraHeapMoveShared() {
  delete _lock;
}

void TeraHeapMoveShared::add_unbacked_fields(const GrowableArrayCHeap<void*, mtGC>* fields) {
  if (fields->is_nonempty()) {
    MutexLocker ml(_lock, Mutex::_no_safepoint_check_flag);
    _unbacked_fields.appendAll(fields);
  }
}

void TeraHeapMoveShared::dirty_unbacked_fields() {
  for (int i = 0; i < _unbacked_fields.length(); i++) {
    TeraHeapCards::dirty_field_on_unbacked_page(_unbacked_fields.at(i));
  }
  log_debug(gc, teraheap)("Cards dirtied on card pages nothing backed: %d listed", _unbacked_fields.length());
  _unbacked_fields.clear();
}

bool TeraHeapMover::writes_own_serial_form(InstanceKlass* ik) const {
  return _write_object_name != NULL && _write_object_signature != NULL &&
         ik->find_local_method(_write_object_name, _write_object_signature,
                               Klass::OverpassLookupMode::skip, Klass::StaticLookupMode::skip,
                               Klass::PrivateLookupMode::find) != NULL;
}

bool TeraHeapMover::can_move(oop obj) {
  if (TeraHeapAddressSpace::contains(obj)) {
    return false;
  }
  if (!_collector->is_marked(obj)) {
    // Live, but not to move now: outside a pause's collection set, or archived.
    if (_singletons != NULL && !_singletons->contains(obj)) {
      _outside_set++;
    }
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
  return _singletons != NULL && !_singletons->contains(obj);
}

// Movers deciding whether H1 is relieved enough read the shared count.
void TeraHeapMover::count_words() {
  Atomic::add(&_shared->words_moved, _words - _words_counted);
  _words_counted = _words;
}

// Another mover may have moved obj since its mark word was read: the bitmap
// lost it after the forwarding pointer went in, so a second look finds that.
static oop forwardee_if_moved(oop obj) {
  OrderAccess::loadload();
  markWord mark = obj->mark_acquire();
  return mark.is_marked() ? cast_to_oop(mark.decode_pointer()) : oop(NULL);
}

// H2 had no room for obj: it stays in H1, unless another mover copied it.
oop TeraHeapMover::left_behind(oop obj) {
  oop moved = forwardee_if_moved(obj);
  if (moved == NULL) {
    _left_behind++;
  }
  return moved;
}

oop TeraHeapMover::copy(oop obj) {
  markWord mark = obj->mark_acquire();
  if (mark.is_marked()) {
    return cast_to_oop(mark.decode_pointer());
  }
  if (!can_move(obj)) {
    return forwardee_if_moved(obj);
  }
  if (h2_full()) {
    return left_behind(obj);
  }
  const size_t words = obj->size();
  HeapWord* to = _buffers.allocate(_label, words);
  if (to == NULL) {
    // No room for one region's worth: H2 is full. No run of free regions for
    // a larger object: smaller ones may still fit.
    if (words <= _regions->region_words()) {
      Atomic::store(&_shared->h2_full, true);
    } else {
      _too_large++;
    }
    return left_behind(obj);
  }
  // The mark word goes along: identity hash, lock state and age stay as they
  // were. Set again after the copy, which may have caught a forwarding
  // pointer another mover just installed.
  Copy::aligned_disjoint_words(cast_from_oop<HeapWord*>(obj), to, words);
  oop moved = cast_to_oop(to);
  moved->set_mark(mark);
  oop first = obj->forward_to_atomic(moved, mark);
  if (first != NULL) {
    _buffers.undo(_label, to, words);
    return first;
  }
  TeraHeapObjectStarts::record(to);
  record_klass(_regions->index_of(to), obj->klass());
  // Its cards stay clean: only the fields that end up referring to H1, or to
  // another label, get theirs dirtied, so that the adjust step reads those
  // cards alone and not every card of what moved.
  _collector->moved(obj, moved, words);
  _objects++;
  _words += words;
  if (_words - _words_counted >= words_per_count) {
    count_words();
  }
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
// H2 are linked at once (TeraHeapMover::link). A transient field's target
// stays in H1: a backward reference, on a dirty card.
class TeraHeapPushFieldsClosure : public BasicOopIterateClosure {
  TeraHeapMover* _mover;
  GrowableArray<void*>* _slots;
  address _base;
  GrowableArray<int>* _transient;

public:
  TeraHeapPushFieldsClosure(TeraHeapMover* mover, GrowableArray<void*>* slots, oop copy,
                            GrowableArray<int>* transient) :
    _mover(mover), _slots(slots), _base(cast_from_oop<address>(copy)),
    _transient(transient) {}

  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (CompressedOops::is_null(heap_oop)) {
      return;
    }
    oop target = CompressedOops::decode_not_null(heap_oop);
    if (TeraHeapAddressSpace::contains(target)) {
      _mover->link(p, target);
    } else if (_transient == NULL || !_transient->contains((int)((address)p - _base))) {
      _slots->push(p);
    } else {
      _mover->keep_on_card(p);
    }
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
  TeraHeapPushFieldsClosure cl(this, &_scratch, copy, transient);
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
  TeraHeapPushFieldsClosure cl(this, &_scratch, copy, NULL);
  copy->oop_iterate_range(&cl, from, end);
  for (int i = _scratch.length() - 1; i >= 0; i--) {
    _work.push(Work{_scratch.at(i), -1});
  }
}

template <class T> void TeraHeapMover::move_field(T* p) {
  const T heap_oop = RawAccess<IS_NOT_NULL>::oop_load(p);
  oop target = CompressedOops::decode_not_null(heap_oop);
  if (!TeraHeapAddressSpace::contains(target)) {
    oop moved = copy(target);
    if (moved == NULL) {
      keep_on_card(p);   // stays in H1: a backward reference
      return;
    }
    RawAccess<IS_NOT_NULL>::oop_store(p, moved);
    target = moved;
  }
  link(p, target);
}

// Collects the fields of an object that stays in H1 and refer into H1 but
// for transient ones (the offsets given).
class TeraHeapH1FieldsClosure : public BasicOopIterateClosure {
  GrowableArray<void*>* _slots;
  address _base;
  GrowableArray<int>* _transient;

public:
  TeraHeapH1FieldsClosure(GrowableArray<void*>* slots, oop obj, GrowableArray<int>* transient) :
    _slots(slots), _base(cast_from_oop<address>(obj)), _transient(transient) {}

  template <class T> void do_oop_work(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    if (!CompressedOops::is_null(heap_oop) &&
        !TeraHeapAddressSpace::contains(CompressedOops::decode_not_null(heap_oop)) &&
        (_transient == NULL || !_transient->contains((int)((address)p - _base)))) {
      _slots->push(p);
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

template <class T> void TeraHeapMover::redirect_field(T* p) {
  oop moved = copy(RawAccess<IS_NOT_NULL>::oop_load(p));
  if (moved != NULL) {
    RawAccess<IS_NOT_NULL>::oop_store(p, moved);
  }
}

// A root that stays in H1: what each of its fields leads to moves, depth-first
// one field (or element) after the other, and the field is sent to the copy.
// It keeps no card: H1's references into H2 need none. Class objects, class
// loaders and References are left as they are, as the mover never copies them.
void TeraHeapMover::move_referents(oop root) {
  Klass* const k = root->klass();
  GrowableArray<int>* transient = NULL;
  if (k->is_instance_klass()) {
    InstanceKlass* ik = InstanceKlass::cast(k);
    if (ik->is_mirror_instance_klass() || ik->is_class_loader_instance_klass() ||
        ik->is_reference_instance_klass()) {
      return;
    }
    transient = transient_offsets(k);
  } else if (!k->is_objArray_klass()) {
    return;
  }
  const int length = k->is_objArray_klass() ? objArrayOop(root)->length() : 1;
  GrowableArray<void*> slots(elements_per_chunk);
  for (int from = 0; from < length; from += elements_per_chunk) {
    slots.clear();
    TeraHeapH1FieldsClosure cl(&slots, root, transient);
    if (k->is_objArray_klass()) {
      objArrayOop(root)->oop_iterate_range(&cl, from, MIN2(length, from + elements_per_chunk));
    } else {
      root->oop_iterate(&cl);
    }
    for (int i = 0; i < slots.length(); i++) {
      if (UseCompressedOops) {
        redirect_field((narrowOop*)slots.at(i));
      } else {
        redirect_field((oop*)slots.at(i));
      }
      drain();
    }
  }
}

void TeraHeapMover::move_from_h2_field(oop holder, void* p, jlong label) {
  oop target;
  if (UseCompressedOops) {
    target = RawAccess<>::oop_load((narrowOop*)p);
  } else {
    target = RawAccess<>::oop_load((oop*)p);
  }
  if (target == NULL || TeraHeapAddressSpace::contains(target) || !_collector->is_marked(target)) {
    return;
  }
  if (holder->klass()->is_instance_klass()) {
    GrowableArray<int>* transient = transient_offsets(holder->klass());
    if (transient->contains((int)((address)p - cast_from_oop<address>(holder)))) {
      return;
    }
  }
  _label = label;
  if (UseCompressedOops) {
    move_field((narrowOop*)p);
  } else {
    move_field((oop*)p);
  }
  drain();
  count_words();
}

bool TeraHeapMover::move_group(oop root, jlong label) {
  _label = label;
  const size_t left_behind = _left_behind;
  _moving_root = true;
  oop moved = copy(root);
  _moving_root = false;
  if (moved == NULL && _collector->redirects_unmoved_root(root)) {
    move_referents(root);
  }
  drain();
  count_words();
  return _left_behind == left_behind;
}

void TeraHeapMover::drain() {
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
}
