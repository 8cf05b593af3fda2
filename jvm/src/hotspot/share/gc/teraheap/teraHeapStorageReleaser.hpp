/*
 * Freed regions' storage given back to the file system, outside pauses.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPSTORAGERELEASER_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPSTORAGERELEASER_HPP

#include "gc/shared/concurrentGCThread.hpp"
#include "utilities/bitMap.hpp"

class Monitor;
class TeraHeapFile;

// Gives the file storage of freed regions back to the file system, outside
// GC pauses. Punching a hole into a file whose pages sit in the page cache
// costs about a millisecond per 16 MB of H2 (the kernel drops every page), so
// doing it in the pause that frees the regions would make that pause grow
// with the data freed. A region opened again before its turn is simply taken
// off the queue (its storage is still there); one opened while its hole is
// being punched waits for the punch, so a hole never lands on new data.
class TeraHeapStorageReleaser : public ConcurrentGCThread {
  TeraHeapFile* const _file;
  const size_t  _region_bytes;
  Monitor* const _lock;
  CHeapBitMap   _queued;        // per region: storage still to be given back
  size_t        _queued_count;
  size_t        _cursor;        // where the next search for queued regions starts
  uint          _busy_from;     // regions being punched now: [_busy_from, _busy_to)
  uint          _busy_to;
  bool          _reclaim_wanted;  // reclaim() waits for the busy run
  bool          _stop;
  bool          _async;         // the thread runs

  bool is_busy(uint region) const { return region >= _busy_from && region < _busy_to; }
  // Takes the next run of queued regions off the queue, with _lock held.
  // False when none is queued.
  bool next_run(uint* from, uint* to);
  // Waits for queued regions; takes a run of them off the queue and marks it
  // busy. False when stopping.
  bool take_run();
  bool reclaim_wanted();
  // Gives back the storage of regions [from, to) in pieces of at most 64 MB;
  // with `yielding`, stops between pieces once reclaim() wants the run (then
  // returns false).
  bool punch(uint from, uint to, bool yielding);

protected:
  virtual void run_service();
  virtual void stop_service();

public:
  TeraHeapStorageReleaser(TeraHeapFile* file, size_t region_bytes, uint regions);

  // Regions [first, end) were freed: queue their storage to be given back.
  void release(uint first, uint end);
  // Region `region` is about to be written again: it must not be punched
  // from now on. Returns once no punch of it is under way.
  void reclaim(uint region);
  // Gives every queued region's storage back to the file system now, on the
  // calling thread, and waits for a punch under way (before concluding that
  // the file system is full). Only the thread that calls reclaim() may call it.
  void drain();

  void threads_do(ThreadClosure* tc) const;
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPSTORAGERELEASER_HPP
