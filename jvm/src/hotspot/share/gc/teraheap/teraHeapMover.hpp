/*
 * One group moved into H2.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPMOVER_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPMOVER_HPP

#include "gc/teraheap/teraHeapMoveBuffers.hpp"
#include "memory/allocation.hpp"
#include "oops/oopsHierarchy.hpp"
#include "runtime/atomic.hpp"
#include "utilities/growableArray.hpp"
#include "utilities/resourceHash.hpp"

class InstanceKlass;
class Mutex;
class Symbol;
class TeraHeapCollector;
class TeraHeapRegions;
class TeraHeapSingletons;

// What the movers of one full GC share.
class TeraHeapMoveShared : public StackObj {
  Mutex* const _lock;
  // A field of each card of H2 copies that must be dirty (a card now and then
  // twice), whose page of cards nothing backed: all clean. Filling such a page clean while other movers
  // may be dirtying cards on it would lose theirs, so it waits for the end.
  GrowableArrayCHeap<void*, mtGC> _unbacked_fields;

public:
  volatile bool   h2_full;       // a claim of a region's size failed: nothing more fits
  volatile size_t words_moved;   // by every mover, counted every few pages

  TeraHeapMoveShared();
  ~TeraHeapMoveShared();
  void add_unbacked_fields(const GrowableArrayCHeap<void*, mtGC>* fields);
  // Once every mover has finished: dirties those fields' cards. One thread.
  void dirty_unbacked_fields();
};

// Moves a group (a tagged root and what it reaches in H1) into H2 during a
// full GC, after marking and before the collector computes new addresses. One
// mover per GC worker; they move different groups at once (TeraHeapMoveTask)
// and meet only on objects that groups share, where the first to install its
// forwarding pointer wins and the other takes its copy back. Depth-first from
// a stack of H2 fields still to follow: each object is copied into the
// worker's buffer for the group's label, the old copy's mark word becomes a
// forwarding pointer (the copy keeps the original mark), and the old copy
// leaves the mark bitmap and the live-data summary, so compaction treats it as
// free space; then the copy's fields are pushed, the first on top. An object
// array's elements are pushed a chunk at a time, as the collector's own
// marking does, so a huge array costs a bounded stack. Before compaction
// overwrites the old copies, every H1 reference to them is redirected (by the
// collector: TeraHeapCollector::moves_done). What the mover skips: transient
// fields, as a serializer would (but not those of a class that writes them
// itself with a writeObject method, as collections do), Class objects, class
// loaders, java.lang.ref.Reference objects and the program's singletons
// (TeraHeapSingletons); they stay in H1 and become backward references, found
// later through H2's cards.
class TeraHeapMover : public StackObj {
  typedef ResourceHashtable<const Klass*, GrowableArray<int>*, primitive_hash<const Klass*>,
                            primitive_equals<const Klass*>, 1031> TransientFields;

  // A field of an H2 copy to follow, or (index >= 0) the elements of an H2
  // object array from `index` on.
  struct Work {
    void* slot_or_array;
    int   index;
  };

  // Region metadata this mover has recorded lately (a class in a region, a
  // link between regions), so that it takes the regions' lock only for news.
  struct Recorded {
    uintptr_t a;
    uintptr_t b;
  };
  static const int recorded_slots = 256;

  TeraHeapCollector*  _collector;           // what the full GC marked, and what it does with old copies
  TeraHeapRegions*    _regions;
  const TeraHeapSingletons* _singletons;   // NULL if only roots may move
  TeraHeapMoveShared* _shared;
  TeraHeapMoveBuffers _buffers;
  GrowableArray<Work> _work;
  GrowableArray<void*> _scratch;  // one object's fields, before they are pushed in order
  GrowableArrayCHeap<void*, mtGC> _unbacked_fields;   // for TeraHeapMoveShared
  // The cards of the fields listed last: a card's references to H1 mostly
  // come close together, and one of its fields is enough to dirty it.
  static const int recent_cards = 4;
  uintptr_t           _recent_cards[recent_cards];
  int                 _next_recent;
  TransientFields     _transients;
  Recorded            _recorded[recorded_slots];
  Symbol*             _write_object_name;
  Symbol*             _write_object_signature;
  jlong               _label;
  bool                _moving_root;
  size_t              _left_behind;   // objects that did not fit in H2
  size_t              _outside_set;   // references to live objects the collector does not let move now
  size_t              _too_large;     // objects larger than a region that found no room
  size_t              _objects;
  size_t              _words;
  size_t              _words_counted;  // in the shared count already

  void count_words();

  bool is_new(uintptr_t a, uintptr_t b);
  void record_dependency(uint from, uint to);
  oop left_behind(oop obj);
  void record_klass(uint region, Klass* k);
  GrowableArray<int>* transient_offsets(Klass* k);
  bool writes_own_serial_form(InstanceKlass* ik) const;
  void push_fields(oop copy);
  void drain();
  void move_referents(oop root);
  template <class T> void redirect_field(T* p);
  void push_elements(objArrayOop copy, int from);
  template <class T> void move_field(T* p);

public:
  TeraHeapMover(TeraHeapRegions* regions, const TeraHeapSingletons* singletons, TeraHeapMoveShared* shared);

  bool can_move(oop obj);
  // Moves the group of `root` to `label`'s regions. False if some of it did
  // not fit and stays in H1. A root that may not move but whose fields the
  // collector lets the mover redirect (TeraHeapCollector::
  // redirects_unmoved_root) has what it refers to moved instead.
  bool move_group(oop root, jlong label);
  // The H2 copy of `obj`, moving it first if needed; NULL if it stays in H1.
  oop copy(oop obj);
  // Moves what the field at `p` of `holder`, an H2 object, refers to in H1
  // into `label`'s regions, with what that reaches, and sets the field to the
  // copy; a transient field, or an unmarked target, is left as it is.
  void move_from_h2_field(oop holder, void* p, jlong label);
  // Ends this mover's part of the move: H2 walkable again, and the fields
  // whose cards wait for the end handed to the shared list.
  void finish();
  // An H2 copy's field at `p` leads to `target` in H2. Within the label the
  // region dependency stands for it; to another label, or into a region this
  // full GC traces (whose objects may be evacuated), the field's card is kept.
  template <class T> void link(T* p, oop target);
  // An H2 copy's field at `p` keeps referring to H1 (or links another label):
  // its card is dirtied, at once or once the movers are done.
  void keep_on_card(void* p);

  size_t objects_moved() const { return _objects; }
  size_t words_moved() const { return _words; }
  bool h2_full() const { return Atomic::load(&_shared->h2_full); }
  size_t too_large() const { return _too_large; }
  // References met to objects that are live but outside what the collector
  // moves now (a pause's collection set), singletons aside.
  size_t outside_set() const { return _outside_set; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPMOVER_HPP
