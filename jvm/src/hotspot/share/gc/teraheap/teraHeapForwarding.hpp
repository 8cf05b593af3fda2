/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP

#include "memory/allocation.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/globalDefinitions.hpp"

// Where each object moved to H2 during the current full GC now lives, keyed
// by its old H1 address. A side table rather than the old copy's mark word:
// compaction overwrites old copies while other GC threads may still be
// adjusting references to them. Filled by one thread; read by many after.
class TeraHeapForwarding : public CHeapObj<mtGC> {
  struct Entry {
    HeapWord* from;
    HeapWord* to;
  };
  Entry* _table;
  size_t _capacity;   // a power of two
  size_t _size;

  static size_t hash(HeapWord* p) {
    uintptr_t x = (uintptr_t)p >> LogHeapWordSize;
    x ^= x >> 17;
    x *= 0xed5ad4bbU;
    x ^= x >> 11;
    return (size_t)x;
  }
  void grow();

public:
  TeraHeapForwarding();

  void clear();
  void put(oop from, oop to);
  // The H2 copy of `from`, or NULL if it did not move.
  oop get(oop from) const;
  size_t size() const { return _size; }
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPFORWARDING_HPP
