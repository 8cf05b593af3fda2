/*
 * H2's part of the card table, read and reset at every collection.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/parallel/objectStartArray.inline.hpp"
#include "gc/parallel/parallelScavengeHeap.inline.hpp"
#include "gc/parallel/psCardTable.hpp"
#include "gc/parallel/psCompactionManager.inline.hpp"
#include "gc/parallel/psParallelCompact.inline.hpp"
#include "gc/parallel/psPromotionManager.inline.hpp"
#include "gc/parallel/psScavenge.inline.hpp"
#include "gc/shared/collectedHeap.hpp"
#include "gc/shared/workgroup.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardResidency.hpp"
#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapLiveness.hpp"
#include "gc/teraheap/teraHeapObjectStarts.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "gc/teraheap/teraHeapTablePages.hpp"
#include "logging/log.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"
#include "oops/oop.inline.hpp"
#include "runtime/atomic.hpp"
#include "runtime/os.hpp"
#include "utilities/align.hpp"

static PSCardTable* card_table() {
  return ParallelScavengeHeap::heap()->card_table();
}

static TeraHeapTablePages* _pages = NULL;

void TeraHeapCards::initialize(MemRegion h2) {
  assert(clean == CardTable::clean_card_val() && dirty == CardTable::dirty_card_val() &&
         youngergen == PSCardTable::youngergen_card_val(), "our card values are the card table's");
  CardValue* const cards = card_table()->byte_for(h2.start());
  TeraHeapCardResidency::initialize(cards, h2.byte_size() >> CardTable::card_shift);
  _pages = new TeraHeapTablePages(h2, (char*)cards, CardTable::card_shift, (u_char)clean,
                                  TeraHeapCardResidency::lazy(), TeraHeapCardResidency::pages_changed,
                                  "TeraHeap: card table for H2");
  TeraHeapCardResidency::watch((char*)cards, (char*)cards + align_up(h2.byte_size() >> CardTable::card_shift,
                                                                     os::vm_page_size()));
}

void TeraHeapCards::commit(MemRegion mr) {
  _pages->commit(mr);
}

size_t TeraHeapCards::committed_bytes() {
  return _pages->committed_bytes();
}

size_t TeraHeapCards::resident_bytes() {
  return TeraHeapCardResidency::resident_bytes();
}

static CardTable::CardValue* first_card(MemRegion mr) {
  return card_table()->byte_for(mr.start());
}

static CardTable::CardValue* end_card(MemRegion mr) {
  return card_table()->byte_for(mr.last()) + 1;
}

void TeraHeapCards::dirty_range(MemRegion mr) {
  card_table()->dirty_MemRegion(mr);
  TeraHeapCardResidency::note_written(first_card(mr), end_card(mr));
}

bool TeraHeapCards::dirty_field_if_backed(const void* p) {
  CardValue* const card = card_table()->byte_for(p);
  if (!TeraHeapCardResidency::is_resident(card)) {
    return false;
  }
  *card = dirty;
  return true;
}

void TeraHeapCards::dirty_field_on_unbacked_page(const void* p) {
  CardValue* const card = card_table()->byte_for(p);
  // All its cards are clean, but a store would fault in a page of zeros, the
  // dirty value: the adjust step would then read all of its cards.
  if (!TeraHeapCardResidency::is_resident(card)) {
    CardValue* const page = align_down(card, os::vm_page_size());
    memset(page, clean, os::vm_page_size());
    TeraHeapCardResidency::note_written(page, page + 1);
  }
  *card = dirty;
}

void TeraHeapCards::refresh(TeraHeapRegions* regions, int k, int end) {
  // Neighbouring regions' cards in one read of the kernel's page map.
  CardValue* run_from = NULL;
  CardValue* run_to = NULL;
  for (; k < end; k++) {
    const uint r = regions->in_use_region(k);
    if (regions->top(r) == regions->bottom(r)) {
      continue;
    }
    CardValue* const from = first_card(regions->used(r));
    CardValue* const to = end_card(regions->used(r));
    if (run_from != NULL && from >= align_down(run_from, os::vm_page_size()) &&
        from <= align_up(run_to, os::vm_page_size())) {
      run_from = MIN2(run_from, from);
      run_to = MAX2(run_to, to);
      continue;
    }
    TeraHeapCardResidency::refresh(run_from, run_to);
    run_from = from;
    run_to = to;
  }
  TeraHeapCardResidency::refresh(run_from, run_to);
}

TeraHeapCards::CardValue TeraHeapCards::value(const void* p) {
  const CardValue* card = card_table()->byte_for(p);
  return TeraHeapCardResidency::is_resident(card) ? *card : clean;
}

void TeraHeapCards::release(MemRegion mr, const TeraHeapRegions* regions) {
  // Pages shared with a region still in use stay: clean the freed cards on
  // them, without making a page resident that is not.
  CardValue* const first = first_card(mr);
  CardValue* const end = end_card(mr);
  TeraHeapCardResidency::refresh(first, end);
  for (CardValue* from = first; from < end; ) {
    CardValue* const to = MIN2(end, align_up(from + 1, os::vm_page_size()));
    if (TeraHeapCardResidency::is_resident(from)) {
      memset(from, clean, to - from);
    }
    from = to;
  }
  _pages->uncommit(mr, regions);
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

// Walks the cards of start region r (an object that spans regions is walked
// from its first), calling `scan_card` on each card `wanted` selects, with an
// object that reaches into it. Pages of cards the kernel does not back are
// all clean and skipped; with `give_back`, so are pages found all clean, which
// are then given back (TeraHeapCardResidency). The region's residency must
// have been refreshed in this pause.
template <typename Wanted, typename ScanCard>
static void walk_cards(TeraHeapRegions* regions, uint r, bool give_back, Wanted wanted, ScanCard scan_card) {
  PSCardTable* ct = card_table();
  TeraHeapObjectStarts* starts = regions->object_starts();
  HeapWord* const bottom = regions->bottom(r);
  HeapWord* const top = regions->top(r);
  if (top == bottom) {
    return;
  }
  // The cards of the regions r spans are read by this walk alone.
  HeapWord* const span_end = bottom + align_up(pointer_delta(top, bottom), regions->region_words());
  HeapWord* obj = bottom;   // an object start at or before the current card
  for (HeapWord* page_start = bottom; page_start < top; ) {
    CardTable::CardValue* const page = align_down(ct->byte_for(page_start), os::vm_page_size());
    HeapWord* const page_end = ct->addr_for(page + os::vm_page_size());
    HeapWord* const to = MIN2(top, page_end);
    if (!TeraHeapCardResidency::is_resident(page)) {
      // All clean up to the next page that may hold anything.
      CardTable::CardValue* const next = TeraHeapCardResidency::next_resident(page, ct->byte_for(top - 1) + 1);
      page_start = next == NULL ? top : MAX2(to, ct->addr_for(next));
      continue;
    }
    if (give_back && ct->addr_for(page) >= bottom && page_end <= span_end &&
        TeraHeapCardResidency::give_back_if_clean(page, ct->byte_for(to - 1) + 1)) {
      page_start = to;
      continue;
    }
    for (HeapWord* card_start = page_start; card_start < to; card_start += CardTable::card_size_in_words) {
      CardTable::CardValue* card = ct->byte_for(card_start);
      // Most of a moved group's cards are clean: skip them a word at a time,
      // never reading past `to` (the next page of cards may not be mapped).
      const size_t cards_per_word = sizeof(uintptr_t);
      while (card_start + cards_per_word * CardTable::card_size_in_words <= to && is_aligned(card, cards_per_word) &&
             *(uintptr_t*)card == (uintptr_t)CardTable::clean_card_row_val()) {
        card += cards_per_word;
        card_start += cards_per_word * CardTable::card_size_in_words;
      }
      if (card_start >= to || !wanted(*card)) {
        continue;
      }
      HeapWord* const card_end = MIN2(card_start + CardTable::card_size_in_words, top);
      // The current object may still cover the card (a large array): then it
      // is the one. Otherwise jump with the start table when far behind, or walk.
      HeapWord* obj_end = obj + cast_to_oop(obj)->size();
      if (obj_end <= card_start && pointer_delta(card_start, obj_end) > 8 * CardTable::card_size_in_words) {
        obj = starts->object_start(card_start, bottom);
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
    page_start = to;
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
  bool _old;      // the old generation
  bool _linked;   // another label's H2 regions
  bool _h1;       // either generation

  template <class T> static oop load(T* p) {
    T heap_oop = RawAccess<>::oop_load(p);
    return CompressedOops::is_null(heap_oop) ? oop(NULL) : CompressedOops::decode_not_null(heap_oop);
  }
  // A reference from the region to `target` in H2: links to other labels are
  // looked at again by every full GC, so their cards must not be clean.
  void link(oop target) {
    if (!_regions->add_dependency(_region, _regions->index_of(target))) {
      _linked = true;
    }
  }

public:
  TeraHeapCardClosure(TeraHeapRegions* regions) : _regions(regions), _region(0), _young(false), _old(false), _linked(false), _h1(false) {}
  void start_card(MemRegion card) {
    _region = _regions->index_of(card.start());
    _young = _old = _linked = _h1 = false;
  }
  bool refers_to_h1() const { return _h1; }
  TeraHeapCards::CardValue state() const {
    return _young ? TeraHeapCards::youngergen : (_old || _linked ? TeraHeapCards::oldgen : TeraHeapCards::clean);
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
    } else if (TeraHeapAddressSpace::contains(o)) {
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
  // Each worker takes a run of the (address-ordered) regions in use: no card
  // is shared, and their residency is read in few calls.
  const int n = regions->in_use_count();
  const int k_from = (int)((size_t)n * worker_id / workers);
  const int k_end = (int)((size_t)n * (worker_id + 1) / workers);
  refresh(regions, k_from, k_end);
  TeraHeapBackwardTargets* targets = regions->backward_targets();
  for (int k = k_from; k < k_end; k++) {
    const uint r = regions->in_use_region(k);
    walk_cards(regions, r, true,
               [](CardValue v) { return v == dirty || v == youngergen; },
               [&](CardValue* card, MemRegion mr, HeapWord* obj) {
                 if (*card == dirty) {
                   targets->note_written(r);
                 }
                 cl.start_card(mr);
                 iterate_fields(obj, mr, &cl);
                 // Written before the young referents are copied: copying can
                 // only raise the card to youngergen again.
                 *card = cl.state();
               });
  }
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
    if (TeraHeapAddressSpace::contains(o)) {
      // Only live regions' cards are read: the target lives too. (Also when
      // the field's object is dead: a region that stays must not refer into
      // one that an evacuation frees.)
      link(o);
      TeraHeapLiveness::mark_reached(_regions, o);
    } else {
      _cm->mark_and_push(p);
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// Cards read by this full GC, for the debug log: by marking, per state
// (dirty, youngergen, oldgen); by the adjust step, and of those, how many
// hold references into H1 and how many it summarized; of those referring
// to old objects that it did not summarize, why not (see Unsummarized).
static volatile size_t _marked_by_state[3] = {0, 0, 0};
static volatile size_t _adjusted = 0;
static volatile size_t _adjusted_h1 = 0;
static volatile size_t _summarized = 0;
enum Unsummarized { refers_to_young, links_other_label, too_many_targets, region_set_full, unsummarized_reasons };
static volatile size_t _unsummarized[unsummarized_reasons] = {0, 0, 0, 0};

static int state_index(TeraHeapCards::CardValue v) {
  return v == TeraHeapCards::dirty ? 0 : (v == TeraHeapCards::youngergen ? 1 : 2);   // summarized: oldgen
}

// Whether the program wrote a card of start region r since the last collection.
static bool has_dirty_card(TeraHeapRegions* regions, uint r) {
  const MemRegion used = regions->used(r);
  if (used.is_empty()) {
    return false;
  }
  CardTable::CardValue* const end = end_card(used);
  for (CardTable::CardValue* card = first_card(used); card < end; ) {
    CardTable::CardValue* const page_end = MIN2(end, align_down(card, os::vm_page_size()) + os::vm_page_size());
    if (TeraHeapCardResidency::is_resident(card) && memchr(card, TeraHeapCards::dirty, page_end - card) != NULL) {
      return true;
    }
    card = page_end;
  }
  return false;
}

void TeraHeapCards::mark(TeraHeapRegions* regions, uint region, ParCompactionManager* cm) {
  TeraHeapMarkClosure cl(cm, regions);
  TeraHeapBackwardTargets* targets = regions->backward_targets();
  if (!targets->is_empty(region) && has_dirty_card(regions, region)) {
    targets->note_written(region);
  }
  const bool skip_summarized = targets->may_skip(region);
  if (!targets->is_empty(region) && !skip_summarized) {
    targets->set_stale(region);   // read now: remembered anew by the adjust step
  }
  bool found = false;
  size_t counts[3] = {0, 0, 0};
  walk_cards(regions, region, true,
             [&](CardValue v) { return v != clean && (!skip_summarized || v != summarized); },
             [&](CardValue* card, MemRegion mr, HeapWord* obj) {
               found = true;
               counts[state_index(*card)]++;
               cl.start_card(mr);
               iterate_fields(obj, mr, &cl);
             });
  if (skip_summarized) {
    targets->list_skipped(region);
  }
  // A region whose cards are all clean has nothing for the adjust step.
  regions->set_has_cards(region, found || !targets->is_empty(region));
  for (int i = 0; i < 3; i++) {
    if (counts[i] > 0) {
      Atomic::add(&_marked_by_state[i], counts[i]);
    }
  }
}

void TeraHeapCards::mark_summarized(TeraHeapRegions* regions, uint region, ParCompactionManager* cm) {
  TeraHeapMarkClosure cl(cm, regions);
  walk_cards(regions, region, false,
             [](CardValue v) { return v == summarized; },
             [&](CardValue* card, MemRegion mr, HeapWord* obj) {
               cl.start_card(mr);
               iterate_fields(obj, mr, &cl);
             });
}

size_t TeraHeapCards::fill_dead_objects(TeraHeapRegions* regions, uint region, bool is_dead(oop)) {
  size_t filled = 0;
  HeapWord* seen_to = regions->bottom(region);   // objects below were looked at
  walk_cards(regions, region, false,
             [](CardValue v) { return v != clean; },
             [&](CardValue* card, MemRegion mr, HeapWord* obj) {
               for (HeapWord* p = MAX2(obj, seen_to); p < mr.end(); ) {
                 oop o = cast_to_oop(p);
                 const size_t size = o->size();
                 if (is_dead(o)) {
                   // Its header only: the rest of the page in H2 stays as it was.
                   CollectedHeap::fill_with_object(p, size, false /* zap */);
                   filled++;
                 }
                 p += size;
                 seen_to = p;
               }
             });
  return filled;
}

void TeraHeapCards::log_cards_read() {
  log_debug(gc, teraheap)("Read H2's cards: marking " SIZE_FORMAT " (dirty " SIZE_FORMAT ", youngergen " SIZE_FORMAT
                          ", oldgen " SIZE_FORMAT "), adjust " SIZE_FORMAT " (" SIZE_FORMAT " refer to H1, " SIZE_FORMAT " summarized)",
                          _marked_by_state[0] + _marked_by_state[1] + _marked_by_state[2], _marked_by_state[0],
                          _marked_by_state[1], _marked_by_state[2], _adjusted, _adjusted_h1, _summarized);
  for (int i = 0; i < 3; i++) {
    _marked_by_state[i] = 0;
  }
  _adjusted = 0;
  _adjusted_h1 = 0;
  _summarized = 0;
  size_t unsummarized = 0;
  for (int i = 0; i < unsummarized_reasons; i++) {
    unsummarized += _unsummarized[i];
  }
  if (unsummarized > 0) {
    log_debug(gc, teraheap)("Cards referring to old objects left unsummarized: " SIZE_FORMAT " also refer to young objects, "
                            SIZE_FORMAT " to other labels' regions, " SIZE_FORMAT " to more than a card remembers, "
                            SIZE_FORMAT " in regions that remember " UINT32_FORMAT " objects already",
                            _unsummarized[refers_to_young], _unsummarized[links_other_label],
                            _unsummarized[too_many_targets], _unsummarized[region_set_full],
                            TeraHeapBackwardTargets::max_targets);
  }
  for (int i = 0; i < unsummarized_reasons; i++) {
    _unsummarized[i] = 0;
  }
}

class TeraHeapAdjustClosure : public TeraHeapCardClosure {
  static const uint max_card_targets = 64;

  ParCompactionManager* _cm;
  oop  _card_targets[max_card_targets];   // the card's old referents, at their new addresses
  uint _card_target_count;
  bool _card_targets_overflow;

  void remember(oop o) {
    if (_card_target_count > 0 && _card_targets[_card_target_count - 1] == o) {
      return;
    }
    if (_card_target_count == max_card_targets) {
      _card_targets_overflow = true;
      return;
    }
    _card_targets[_card_target_count++] = o;
  }

public:
  TeraHeapAdjustClosure(ParCompactionManager* cm, TeraHeapRegions* regions) :
    TeraHeapCardClosure(regions), _cm(cm), _card_target_count(0), _card_targets_overflow(false) {}

  void start_card(MemRegion card) {
    TeraHeapCardClosure::start_card(card);
    _card_target_count = 0;
    _card_targets_overflow = false;
  }
  // Whether the card just read can be summarized: it refers outside its
  // label only to old objects, which `region` now remembers. If it refers to
  // old objects and cannot be, counts why in `why_not`.
  bool summarize(TeraHeapBackwardTargets* targets, uint region, size_t* why_not) const {
    if (!_old) {
      return false;
    }
    if (_young || _linked || _card_targets_overflow) {
      why_not[_young ? refers_to_young : (_linked ? links_other_label : too_many_targets)]++;
      return false;
    }
    for (uint i = 0; i < _card_target_count; i++) {
      if (!targets->add(region, _card_targets[i])) {
        why_not[region_set_full]++;
        return false;
      }
    }
    return true;
  }

  template <class T> void do_oop_work(T* p) {
    PSParallelCompact::adjust_pointer(p, _cm);
    oop o = load(p);
    if (o == NULL) {
      return;
    }
    if (TeraHeapAddressSpace::contains(o)) {
      link(o);
    } else {
      _h1 = true;
      if (ParallelScavengeHeap::heap()->is_in_young(o)) {
        _young = true;
      } else {
        _old = true;
        remember(o);
      }
    }
  }
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// The regions in use, claimed one at a time by the GC workers: after a move,
// the regions just filled hold most of the cards to adjust.
class TeraHeapAdjustTask : public AbstractGangTask {
  TeraHeapRegions* _regions;
  volatile int     _next;

public:
  TeraHeapAdjustTask(TeraHeapRegions* regions) :
    AbstractGangTask("TeraHeap adjust H2"), _regions(regions), _next(0) {}

  void work(uint worker_id) {
    ParCompactionManager* cm = ParCompactionManager::gc_thread_compaction_manager(worker_id);
    TeraHeapAdjustClosure cl(cm, _regions);
    TeraHeapBackwardTargets* targets = _regions->backward_targets();
    size_t count = 0;
    size_t count_h1 = 0;
    size_t count_summarized = 0;
    size_t why_not[unsummarized_reasons] = {0, 0, 0, 0};
    for (int k = Atomic::fetch_and_add(&_next, 1); k < _regions->in_use_count(); k = Atomic::fetch_and_add(&_next, 1)) {
      const uint r = _regions->in_use_region(k);
      if (!_regions->has_cards(r)) {
        continue;
      }
      // Summarized cards are read only if an object the region remembers
      // moves, or the region is stale; then what they refer to is
      // remembered anew. (A stale region's objects were not marked for it.)
      const bool reread = targets->is_stale(r) || targets->any_moves(r, cm);
      if (reread) {
        targets->clear(r);
      }
      walk_cards(_regions, r, false,
                 [&](TeraHeapCards::CardValue v) {
                   return v != TeraHeapCards::clean && (reread || v != TeraHeapCards::summarized);
                 },
                 [&](TeraHeapCards::CardValue* card, MemRegion mr, HeapWord* obj) {
                   count++;
                   cl.start_card(mr);
                   iterate_fields(obj, mr, &cl);
                   count_h1 += cl.refers_to_h1() ? 1 : 0;
                   if (cl.summarize(targets, r, why_not)) {
                     *card = TeraHeapCards::summarized;
                     count_summarized++;
                   } else {
                     *card = cl.state();
                   }
                 });
    }
    Atomic::add(&_adjusted, count);
    Atomic::add(&_adjusted_h1, count_h1);
    Atomic::add(&_summarized, count_summarized);
    for (int i = 0; i < unsummarized_reasons; i++) {
      if (why_not[i] > 0) {
        Atomic::add(&_unsummarized[i], why_not[i]);
      }
    }
  }
};

void TeraHeapCards::adjust(TeraHeapRegions* regions) {
  TeraHeapAdjustTask task(regions);
  ParallelScavengeHeap::heap()->workers().run_task(&task);
}
