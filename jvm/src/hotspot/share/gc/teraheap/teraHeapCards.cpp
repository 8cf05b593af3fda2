/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/objectStartArray.inline.hpp"
#include "gc/parallel/parallelScavengeHeap.inline.hpp"
#include "gc/parallel/psCardTable.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/parallel/psPromotionManager.inline.hpp"
#include "gc/parallel/psScavenge.inline.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"

static PSCardTable* card_table() {
  return ParallelScavengeHeap::heap()->card_table();
}

void TeraHeapCards::initialize(MemRegion h2) {
  assert(clean == CardTable::clean_card_val() && dirty == CardTable::dirty_card_val() &&
         youngergen == PSCardTable::youngergen_card_val(), "our card values are the card table's");
  CardValue* first = card_table()->byte_for(h2.start());
  CardValue* last = card_table()->byte_for(h2.last());
  char* start = align_down((char*)first, os::vm_page_size());
  char* end = align_up((char*)(last + 1), os::vm_page_size());
  os::commit_memory_or_exit(start, end - start, false, "TeraHeap: card table for H2");
  memset(first, clean, last + 1 - first);
}

void TeraHeapCards::dirty_range(MemRegion mr) {
  card_table()->dirty_MemRegion(mr);
}

void TeraHeapCards::clear_range(MemRegion mr) {
  CardValue* first = card_table()->byte_for(mr.start());
  CardValue* last = card_table()->byte_for(mr.last());
  memset(first, clean, last + 1 - first);
}

// For a store into an object's field the barrier marks the card of the
// object's header, not of the field (object arrays excepted). A dirty card
// therefore stands for every card of the objects whose headers it holds: mark
// those too, so that each card is then scanned on its own, every field once.
static void spread_imprecise_mark(HeapWord* obj, HeapWord* card_start, HeapWord* card_end) {
  for (HeapWord* p = obj; p < card_end; ) {
    oop o = cast_to_oop(p);
    HeapWord* const end = p + o->size();
    if (p >= card_start && end > card_end && o->is_instance()) {
      TeraHeapCards::dirty_range(MemRegion(card_end, end));
    }
    p = end;
  }
}

// Walks the cards of each region in use (start regions only: an object that
// spans regions is walked from its first), calling `scan_card` on each card
// `wanted` selects, with an object that reaches into it.
template <typename Wanted, typename ScanCard>
static void walk_cards(TeraHeapRegions* regions, uint first_region, uint stride,
                       Wanted wanted, ScanCard scan_card) {
  PSCardTable* ct = card_table();
  TeraHeapStartArray* starts = regions->start_array();
  for (uint r = first_region; r < regions->count(); r += stride) {
    if (!regions->in_use(r) || regions->index_of(regions->bottom(r)) != r) {
      continue;
    }
    HeapWord* const bottom = regions->bottom(r);
    HeapWord* const top = regions->top(r);
    HeapWord* obj = bottom;   // an object start at or before the current card
    for (HeapWord* card_start = bottom; card_start < top; card_start += CardTable::card_size_in_words) {
      CardTable::CardValue* card = ct->byte_for(card_start);
      // Most of a moved group's cards are clean: skip them a word at a time.
      const size_t cards_per_word = sizeof(uintptr_t);
      while (is_aligned(card, cards_per_word) && *(uintptr_t*)card == (uintptr_t)CardTable::clean_card_row_val() &&
             card_start + cards_per_word * CardTable::card_size_in_words <= top) {
        card += cards_per_word;
        card_start += cards_per_word * CardTable::card_size_in_words;
      }
      if (card_start >= top || !wanted(*card)) {
        continue;
      }
      HeapWord* const card_end = MIN2(card_start + CardTable::card_size_in_words, top);
      // The current object may still cover the card (a large array): then it
      // is the one. Otherwise jump with the start array when far behind (its
      // lookup walks back at most to where the current object ends), or walk.
      HeapWord* obj_end = obj + cast_to_oop(obj)->size();
      if (obj_end <= card_start && pointer_delta(card_start, obj_end) > 8 * CardTable::card_size_in_words) {
        obj = starts->object_start(card_start);
        obj_end = obj + cast_to_oop(obj)->size();
      }
      while (obj_end <= card_start) {
        obj = obj_end;
        obj_end = obj + cast_to_oop(obj)->size();
      }
      if (*card == TeraHeapCards::dirty) {
        spread_imprecise_mark(obj, card_start, card_end);
      }
      scan_card(card, MemRegion(card_start, card_end), obj);
    }
  }
}


// Iterates the fields within `mr` of the objects from `obj` on.
template <typename Closure>
static void iterate_fields(HeapWord* obj, MemRegion mr, Closure* cl) {
  while (obj < mr.end()) {
    oop o = cast_to_oop(obj);
    o->oop_iterate(cl, mr);
    obj += o->size();
  }
}

// What the closures over a card's fields share: the region being scanned, the
// state the card takes from the referents, and the recording of H2 links.
class TeraHeapCardClosure : public BasicOopIterateClosure {
protected:
  TeraHeapRegions* _regions;
  uint _region;
  bool _young;
  bool _old;    // the old generation, or another label's H2 regions

  template <class T> static oop load(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    return CompressedOops::is_null(heap_oop) ? oop(NULL) : CompressedOops::decode_not_null(heap_oop);
  }
  // A reference from the region to `target` in H2: links to other labels are
  // looked at again by every full GC, so their cards must not be clean.
  void link(oop target) {
    if (!_regions->add_dependency(_region, _regions->index_of(target))) {
      _old = true;
    }
  }

public:
  TeraHeapCardClosure(TeraHeapRegions* regions) : _regions(regions), _region(0), _young(false), _old(false) {}
  void start_card(MemRegion card) {
    _region = _regions->index_of(card.start());
    _young = _old = false;
  }
  TeraHeapCards::CardValue state() const {
    return _young ? TeraHeapCards::youngergen : (_old ? TeraHeapCards::oldgen : TeraHeapCards::clean);
  }
};

class TeraHeapScavengeClosure : public TeraHeapCardClosure {
  PSPromotionManager* _pm;
public:
  TeraHeapScavengeClosure(PSPromotionManager* pm, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _pm(pm) {}

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (PSScavenge::is_obj_in_young(o)) {
      _young = true;
      _pm->claim_or_forward_depth(p);
    } else if (TeraHeap::is_in_h2(o)) {
      link(o);
    } else {
      _old = true;
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapCards::scavenge(TeraHeapRegions* regions, PSPromotionManager* pm, uint worker_id, uint workers) {
  TeraHeapScavengeClosure cl(pm, regions);
  walk_cards(regions, worker_id, workers,
             [](CardValue v) { return v == dirty || v == youngergen; },
             [&](CardValue* card, MemRegion mr, HeapWord* obj) {
               cl.start_card(mr);
               iterate_fields(obj, mr, &cl);
               // Written before the young referents are copied: copying can
               // only raise the card to youngergen again.
               *card = cl.state();
             });
}

class TeraHeapMarkClosure : public TeraHeapCardClosure {
  ParCompactionManager* _cm;
public:
  TeraHeapMarkClosure(ParCompactionManager* cm, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _cm(cm) {}

  template <class T> void do_oop_work(T* p) {
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeap::is_in_h2(o)) {
      // Only live regions' cards are read: the target lives too.
      link(o);
      _regions->mark_live(_regions->raw_index_of(o));
    } else {
      _cm->mark_and_push(p);
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapCards::mark(TeraHeapRegions* regions, uint region, ParCompactionManager* cm) {
  TeraHeapMarkClosure cl(cm, regions);
  bool found = false;
  walk_cards(regions, region, regions->count(),
             [](CardValue v) { return v != clean; },
             [&](CardValue* card, MemRegion mr, HeapWord* obj) {
               found = true;
               cl.start_card(mr);
               iterate_fields(obj, mr, &cl);
             });
  // A region whose cards are all clean has nothing for the adjust step.
  regions->set_has_cards(region, found);
}

class TeraHeapAdjustClosure : public TeraHeapCardClosure {
  ParCompactionManager* _cm;
public:
  TeraHeapAdjustClosure(ParCompactionManager* cm, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _cm(cm) {}

  template <class T> void do_oop_work(T* p) {
    PSParallelCompact::adjust_pointer(p, _cm);
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeap::is_in_h2(o)) {
      link(o);
    } else if (ParallelScavengeHeap::heap()->is_in_young(o)) {
      _young = true;
    } else {
      _old = true;
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

void TeraHeapCards::adjust(TeraHeapRegions* regions, ParCompactionManager* cm) {
  TeraHeapAdjustClosure cl(cm, regions);
  for (uint r = 0; r < regions->count(); r++) {
    if (!regions->has_cards(r)) {
      continue;
    }
    walk_cards(regions, r, regions->count(),
               [](CardValue v) { return v != clean; },
               [&](CardValue* card, MemRegion mr, HeapWord* obj) {
                 cl.start_card(mr);
                 iterate_fields(obj, mr, &cl);
                 *card = cl.state();
               });
  }
}
