/*
 * Objects the whole program shares, which no group takes.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPSINGLETONS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPSINGLETONS_HPP

#include "memory/allocation.hpp"
#include "oops/oopsHierarchy.hpp"
#include "utilities/resourceHash.hpp"

// Objects the whole program shares, which no group takes: what static fields
// refer to (enum constants, Boolean.TRUE, Scala's None and Nil, a class's
// caches), what the fields of enum constants and Scala objects refer to, and
// the elements of object arrays that the JDK's own classes keep in static
// final fields (the Integer, Long, Short, Byte and Character caches).
// A serializer writes such an object by name, or as a fresh copy, never as
// part of the data. Moved with the first group that reaches it, a singleton
// would stay referenced from H1 for good and pin that group's regions.
// Collected at a full GC that moves, after marking, while addresses hold.
class TeraHeapSingletons : public ResourceObj {
  typedef ResourceHashtable<HeapWord*, bool, primitive_hash<HeapWord*>, primitive_equals<HeapWord*>,
                            65537> Set;
  Set _set;

public:
  TeraHeapSingletons();
  void add(oop obj);
  bool contains(oop obj) const;
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPSINGLETONS_HPP
