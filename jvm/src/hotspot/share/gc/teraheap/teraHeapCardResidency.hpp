/*
 * Which pages of H2's card table hold anything.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDRESIDENCY_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDRESIDENCY_HPP

#include "gc/shared/cardTable.hpp"
#include "memory/allStatic.hpp"
#include "memory/memRegion.hpp"
#include "utilities/bitMap.hpp"

// Which pages of H2's card table hold anything. Most of a large H2 is
// written once, when its groups move, and read afterwards: its cards stay
// clean. A page of the table (4 KB of cards, 2 MB of H2) whose cards are all
// clean is given back to the kernel, and a page the kernel does not back is
// read as all clean, without touching it. The stock barrier needs no change:
// its first store into such a page faults in a zero page, and zero is the
// dirty card value, so the whole page then reads dirty until a collector
// has scanned it. So the collectors read, and DRAM holds, only the pages
// written since they were last found clean, however large H2 is.
//
// Which pages the kernel backs is known as it maps them in, from
// userfaultfd (TeraHeapCardFaults): then a collection costs nothing per page
// that nobody wrote. Where userfaultfd is not allowed, it is read from the
// kernel's page map (TeraHeapPageMap) at every collection, before
// any page is skipped. Where neither can be used, every page counts as
// resident and none is given back: pages are then filled with clean cards
// when committed, as any card table's.
class TeraHeapCardResidency : AllStatic {
  static CardTable::CardValue* _base;   // the card of H2's first word
  static bool     _lazy;                 // the kernel's page map can be read
  static CHeapBitMap* _resident;         // per page: may hold non-clean cards, read it
  static int      _page_shift;           // log2 of the page size: a lookup per page of
                                         // every region in use, at every collection

  static size_t page_of(const void* card) {
    return pointer_delta(card, _base, 1) >> _page_shift;
  }
  static char* page_address(size_t page) {
    return (char*)_base + (page << _page_shift);
  }

public:
  static void initialize(CardTable::CardValue* h2_cards, size_t bytes);
  // False if every page must be filled with clean cards when committed.
  static bool lazy() { return _lazy; }
  // Once the table is mapped: from now on, learn of pages as they are mapped
  // in (if the kernel allows it) instead of reading the page map.
  static void watch(char* from, char* to);

  // Sets the resident bits of the pages that hold the cards from..to (one
  // region's, or a run of regions') from the kernel's page map, unless the
  // bits are kept as pages are mapped in. Any thread; pages shared with
  // another caller's range get the same answer.
  static void refresh(const CardTable::CardValue* from, const CardTable::CardValue* to);
  // The page of `card` may be read.
  static bool is_resident(const CardTable::CardValue* card) {
    return _resident->at(page_of(card));
  }
  // The first card of the first page at or after `card`'s page that may be
  // read, or NULL if none does before `end`: a region whose cards are all
  // clean is passed over with one look at its word of bits.
  static CardTable::CardValue* next_resident(const CardTable::CardValue* card, const CardTable::CardValue* end);
  // Cards just written by a collector (made resident if they were not).
  static void note_written(const CardTable::CardValue* from, const CardTable::CardValue* to);
  // True if the cards from `page`, a page's start, to `end` are clean; the
  // page is then given back to the kernel. Its cards after `end` describe no
  // object (they are past a region's top), and come back clean. The caller
  // must be the only one to read or write a card of that page for the rest
  // of this pause.
  static bool give_back_if_clean(CardTable::CardValue* page, const CardTable::CardValue* end);
  // Pages of the table just committed (TeraHeapTablePages fills them with
  // clean cards unless lazy) or uncommitted.
  static void pages_changed(char* from, char* to, bool committed);

  static size_t resident_bytes();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDRESIDENCY_HPP
