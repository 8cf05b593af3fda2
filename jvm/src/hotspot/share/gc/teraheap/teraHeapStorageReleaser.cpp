/*
 * TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapFile.hpp"
#include "gc/teraheap/teraHeapStorageReleaser.hpp"
#include "runtime/mutex.hpp"
#include "runtime/mutexLocker.hpp"
#include "utilities/bitMap.inline.hpp"

// At most this much storage per punch, so that a region opened meanwhile
// waits for one short punch at most.
static const size_t max_run_bytes = 64 * M;

TeraHeapStorageReleaser::TeraHeapStorageReleaser(TeraHeapFile* file, size_t region_bytes, uint regions) :
    _file(file),
    _region_bytes(region_bytes),
    _lock(new Monitor(Mutex::leaf, "TeraHeapStorageReleaser_lock", true, Mutex::_safepoint_check_never)),
    _queued(regions, mtGC),
    _queued_count(0),
    _cursor(0),
    _busy_from(0),
    _busy_to(0),
    _stop(false),
    _async(false) {
  set_name("TeraHeap Storage Releaser");
  create_and_start();
  // Without a thread (none could be made) storage goes back in the pause.
  _async = osthread() != NULL;
}

void TeraHeapStorageReleaser::release(uint first, uint end) {
  if (!_async) {
    _file->release_storage(first * _region_bytes, (end - first) * _region_bytes);
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
  while (is_busy(region)) {
    ml.wait();
  }
}

void TeraHeapStorageReleaser::drain() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  while ((_queued_count > 0 || _busy_from < _busy_to) && !_stop) {
    ml.wait();
  }
}

bool TeraHeapStorageReleaser::take_run() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _busy_from = _busy_to = 0;
  ml.notify_all();   // reclaim() and drain() may wait for the last run
  while (_queued_count == 0 && !_stop) {
    ml.wait();
  }
  if (_stop) {
    return false;
  }
  size_t first = _queued.get_next_one_offset(_cursor);
  if (first == _queued.size()) {
    first = _queued.get_next_one_offset(0);
  }
  const size_t limit = MIN2(_queued.size(), first + MAX2((size_t)1, max_run_bytes / _region_bytes));
  size_t end = first;
  while (end < limit && _queued.at(end)) {
    _queued.clear_bit(end);
    _queued_count--;
    end++;
  }
  _cursor = end;
  _busy_from = (uint)first;
  _busy_to = (uint)end;
  return true;
}

void TeraHeapStorageReleaser::run_service() {
  while (take_run()) {
    _file->release_storage(_busy_from * _region_bytes, (_busy_to - _busy_from) * _region_bytes);
  }
}

void TeraHeapStorageReleaser::stop_service() {
  MonitorLocker ml(_lock, Mutex::_no_safepoint_check_flag);
  _stop = true;
  ml.notify_all();
}
