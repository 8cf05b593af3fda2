/*
 * Freed regions' storage given back to the file system, outside pauses.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapStorageReleaser.hpp"
#include "logging/log.hpp"
#include "memory/iterator.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "runtime/os.hpp"
#include "utilities/bitMap.inline.hpp"

// At most this much storage per punch, so that a region opened meanwhile
// waits for one short punch at most, whatever the region size.
static const size_t max_punch_bytes = 64 * M;

TeraHeapStorageReleaser::TeraHeapStorageReleaser(TeraHeapFile* file, size_t region_bytes, uint regions) :
    _file(file),
    _region_bytes(region_bytes),
    _lock(new Monitor(Mutex::leaf, "TeraHeapStorageReleaser_lock", true, Mutex::_safepoint_check_never)),
    _queued(regions, mtGC),
    _queued_count(0),
    _cursor(0),
    _busy_from(0),
    _busy_to(0),
    _reclaim_wanted(false),
    _stop(false),
    _async(false) {
  set_name("TeraHeap Storage Releaser");
  create_and_start();
  // Without a thread (none could be made) storage goes back in the pause.
  _async = osthread() != NULL;
}

void TeraHeapStorageReleaser::release(uint first, uint end) {
  if (!_async) {
    punch(first, end, false);
    return;
  }
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  for (uint r = first; r < end; r++) {
    if (!_queued.at(r)) {
      _queued.set_bit(r);
      _queued_count++;
    }
  }
  ml.notify_all();
}

void TeraHeapStorageReleaser::reclaim(uint region) {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  if (_queued.at(region)) {
    _queued.clear_bit(region);
    _queued_count--;
  }
  if (is_busy(region)) {
    _reclaim_wanted = true;   // a run of large regions stops at its next piece
  }
  while (is_busy(region)) {
    ml.wait();
  }
}

// Runs on the thread that reclaims regions, so no region it takes here can
// be reclaimed while it punches it.
void TeraHeapStorageReleaser::drain() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  uint from, to;
  while (next_run(&from, &to)) {
    MutexUnlocker mu(_lock, Mutex::_no_safepoint_check_flag);
    punch(from, to, false);
  }
  // Not waiting for the thread to empty the queue: before the VM has started
  // it, it would never come.
  while (_busy_from < _busy_to) {
    ml.wait();
  }
}

bool TeraHeapStorageReleaser::next_run(uint* from, uint* to) {
  assert_lock_strong(_lock);
  if (_queued_count == 0) {
    return false;
  }
  size_t first = _queued.get_next_one_offset(_cursor);
  if (first == _queued.size()) {
    first = _queued.get_next_one_offset(0);
  }
  const size_t limit = MIN2(_queued.size(), first + MAX2((size_t)1, max_punch_bytes / _region_bytes));
  size_t end = first;
  while (end < limit && _queued.at(end)) {
    _queued.clear_bit(end);
    _queued_count--;
    end++;
  }
  _cursor = end;
  *from = (uint)first;
  *to = (uint)end;
  return true;
}

bool TeraHeapStorageReleaser::take_run() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _busy_from = _busy_to = 0;
  _reclaim_wanted = false;
  ml.notify_all();   // reclaim() and drain() may wait for the last run
  uint from, to;
  while (!_stop && !next_run(&from, &to)) {
    ml.wait();
  }
  if (_stop) {
    return false;
  }
  _busy_from = from;
  _busy_to = to;
  return true;
}

bool TeraHeapStorageReleaser::reclaim_wanted() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  return _reclaim_wanted;
}

// A region left partly punched is whole again once reserve_storage()
// allocates it: opening a region never relies on its old contents.
bool TeraHeapStorageReleaser::punch(uint from, uint to, bool yielding) {
  const size_t begin = from * _region_bytes;
  const size_t end = to * _region_bytes;
  for (size_t offset = begin; offset < end; offset += max_punch_bytes) {
    if (yielding && offset > begin && reclaim_wanted()) {
      return false;
    }
    _file->release_storage(offset, MIN2(max_punch_bytes, end - offset));
  }
  return true;
}

void TeraHeapStorageReleaser::run_service() {
  while (take_run()) {
    const jlong start = os::javaTimeNanos();
    const bool whole = punch(_busy_from, _busy_to, true);
    log_debug(gc, teraheap)("Gave back the storage of regions %u to %u%s in %.3fms, outside GC pauses",
                            _busy_from, _busy_to - 1, whole ? "" : " (in part: reopened)",
                            (os::javaTimeNanos() - start) / 1e6);
  }
}

void TeraHeapStorageReleaser::threads_do(ThreadClosure* tc) const {
  if (_async) {
    tc->do_thread(const_cast<TeraHeapStorageReleaser*>(this));
  }
}

void TeraHeapStorageReleaser::stop_service() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _stop = true;
  ml.notify_all();
}
