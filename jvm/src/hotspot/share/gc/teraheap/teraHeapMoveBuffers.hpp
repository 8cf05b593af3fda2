/*
 * A GC worker's space in H2 while groups move.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPMOVEBUFFERS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPMOVEBUFFERS_HPP

#include "memory/allocation.hpp"
#include "utilities/growableArray.hpp"

class TeraHeapRegions;

// One GC worker's space in H2 while groups move in parallel, per label. The
// first objects a worker copies for a label are placed one at a time in the
// label's open region, under its lock, so a small move leaves no gap; past
// that, the worker copies into buffers carved from the open region, each as
// large as what it has copied for the label so far (up to a quarter of a
// region), so that copying takes no lock and a group still lands front to
// back. A buffer that runs out grows in place when no other worker claimed
// space after it. At the end a buffer's unused tail goes back to the region
// if nothing follows it, else becomes a filler object: H2 must stay walkable
// object by object. So what a move leaves unused is at most about what each
// worker copied for each label, and at most a buffer.
class TeraHeapMoveBuffers : public StackObj {
  struct Buffer {
    jlong     label;
    HeapWord* top;
    HeapWord* end;
    size_t    copied;      // words this worker placed for the label
    HeapWord* last_single; // the last object placed on its own, for undo
  };

  TeraHeapRegions*    _regions;
  GrowableArray<Buffer> _buffers;
  int                 _last;     // the buffer used last: a group mostly has one label

  Buffer* buffer_of(jlong label);
  bool fits(const Buffer* b, size_t words) const;
  void retire(Buffer* b);
  void give_back_or_fill(HeapWord* p, size_t words);

public:
  // Words a worker places one at a time for a label before it takes buffers.
  static const size_t single_words = 8 * K;
  // The largest buffer (at most a quarter of a region).
  static const size_t buffer_words = 128 * K;

  explicit TeraHeapMoveBuffers(TeraHeapRegions* regions);

  // Space for `words` in `label`'s regions; NULL when H2 has no room.
  HeapWord* allocate(jlong label, size_t words);
  // Takes back the space that the last allocate(label, words) returned at p:
  // another worker copied the same object first. (An object larger than a
  // region leaves a filler in its regions until the next full GC.)
  void undo(jlong label, HeapWord* p, size_t words);
  // Gives back or fills every buffer's unused tail.
  void retire_all();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPMOVEBUFFERS_HPP
