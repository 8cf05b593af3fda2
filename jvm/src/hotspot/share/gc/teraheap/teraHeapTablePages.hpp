/*
 * Side tables of H2, backed by DRAM only where regions are in use.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPTABLEPAGES_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPTABLEPAGES_HPP

#include "memory/allocation.hpp"
#include "memory/memRegion.hpp"
#include "utilities/bitMap.hpp"

class TeraHeapRegions;

// A side table of H2 (a fixed number of bytes per fixed-size block of H2:
// its cards, its object starts) that is reserved for all of H2 but backed by
// DRAM only where regions are in use. So a terabyte H2 that holds a few
// gigabytes costs the metadata of a few gigabytes. Pages are committed when a
// region opens and given back when every region they describe is free.
// Both happen during a full GC: commits by the GC worker that opens a region
// (under the regions' claim lock), uncommits by the VM thread that frees
// regions, or by a GC worker whose multi-region claim failed (under that lock).
class TeraHeapTablePages : public CHeapObj<mtGC> {
public:
  // Told of every run of pages committed (true) or uncommitted (false).
  typedef void (*PagesChanged)(char* from, char* to, bool committed);

private:
  MemRegion   _h2;
  char*       _table;        // the byte describing H2's first block
  size_t      _table_bytes;  // for all of H2
  int         _block_shift;  // log2 of the H2 bytes per table byte
  u_char      _fill;         // what a fresh page holds: the table's "nothing here"
  bool        _lazy_fill;    // leave fresh pages untouched (the owner knows they read as _fill)
  PagesChanged _changed;     // or NULL
  const char* _name;         // for the out-of-memory message
  CHeapBitMap _committed;    // per page of the table

  size_t page_of(const char* p) const;
  char* page_address(size_t page) const;
  // The pages of table bytes that describe mr.
  void pages_for(MemRegion mr, size_t* first, size_t* end) const;
  MemRegion h2_range_of_page(size_t page) const;

public:
  // `table` is the table byte of H2's first block; its pages must be
  // reserved and not committed. `block_shift`: log2 of H2 bytes per byte.
  TeraHeapTablePages(MemRegion h2, char* table, int block_shift, u_char fill, bool lazy_fill,
                     PagesChanged changed, const char* name);

  // Backs the table bytes of mr (a region about to be used) with DRAM.
  void commit(MemRegion mr);
  // Gives back the pages of mr's table bytes (mr: regions just freed) that
  // describe no region still in use.
  void uncommit(MemRegion mr, const TeraHeapRegions* regions);

  size_t committed_bytes() const;
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPTABLEPAGES_HPP
