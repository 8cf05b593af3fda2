/*
 * What a closure over one card's fields learns: the state the card takes.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDCLOSURE_INLINE_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDCLOSURE_INLINE_HPP

#include "gc/teraheap/teraHeapCards.hpp"
#include "gc/teraheap/teraHeapRegions.hpp"
#include "memory/iterator.hpp"
#include "memory/memRegion.hpp"
#include "oops/access.inline.hpp"
#include "oops/compressedOops.inline.hpp"

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
  // False for such a link (the region's dependencies do not hold it).
  bool link(oop target) {
    if (!_regions->add_dependency(_region, _regions->index_of(target))) {
      _linked = true;
      return false;
    }
    return true;
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

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDCLOSURE_INLINE_HPP
