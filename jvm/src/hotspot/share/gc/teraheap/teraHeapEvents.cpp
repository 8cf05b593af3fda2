/*
 * TeraHeap's events in JDK Flight Recorder.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/shared/gcId.hpp"
#include "gc/teraheap/teraHeapEvents.hpp"
#include "runtime/atomic.hpp"
#if INCLUDE_JFR
#include "jfr/jfrEvents.hpp"
#endif

volatile size_t TeraHeapEvents::_card_faults = 0;

bool TeraHeapEvents::moves_wanted() {
#if INCLUDE_JFR
  return EventTeraHeapMove::is_enabled();
#else
  return false;
#endif
}

void TeraHeapEvents::moved(jlong label, size_t bytes, size_t objects, uint workers,
                           const Ticks& start, const Ticks& end) {
#if INCLUDE_JFR
  EventTeraHeapMove e(UNTIMED);
  if (e.should_commit()) {
    e.set_starttime(start);
    e.set_endtime(end);
    e.set_gcId(GCId::current());
    e.set_label(label);
    e.set_bytes(bytes);
    e.set_objects(objects);
    e.set_workers(workers);
    e.commit();
  }
#endif
}

void TeraHeapEvents::regions_freed(size_t regions, size_t bytes, size_t regions_in_use, size_t used_bytes) {
#if INCLUDE_JFR
  EventTeraHeapRegionsFreed e;
  if (e.should_commit()) {
    e.set_gcId(GCId::current());
    e.set_regions(regions);
    e.set_bytes(bytes);
    e.set_regionsInUse(regions_in_use);
    e.set_usedBytes(used_bytes);
    e.commit();
  }
#endif
}

void TeraHeapEvents::h2_full(size_t capacity, size_t used_bytes, bool file_system_full) {
#if INCLUDE_JFR
  EventTeraHeapFull e;
  if (e.should_commit()) {
    e.set_gcId(GCId::current());
    e.set_capacity(capacity);
    e.set_usedBytes(used_bytes);
    e.set_fileSystemFull(file_system_full);
    e.commit();
  }
#endif
}

void TeraHeapEvents::evacuated(jlong label, size_t live_bytes, size_t regions_freed) {
#if INCLUDE_JFR
  EventTeraHeapEvacuation e;
  if (e.should_commit()) {
    e.set_gcId(GCId::current());
    e.set_label(label);
    e.set_liveBytes(live_bytes);
    e.set_regionsFreed(regions_freed);
    e.commit();
  }
#endif
}

void TeraHeapEvents::h1_resized(size_t from, size_t to, const char* reason) {
#if INCLUDE_JFR
  EventTeraHeapH1Resize e;
  if (e.should_commit()) {
    e.set_gcId(GCId::current_or_undefined());
    e.set_previousTarget(from);
    e.set_target(to);
    e.set_reason(reason);
    e.commit();
  }
#endif
}

void TeraHeapEvents::card_page_faulted() {
  Atomic::inc(&_card_faults);
}

void TeraHeapEvents::report_card_faults() {
  const size_t faults = Atomic::xchg(&_card_faults, (size_t)0);
  if (faults == 0) {
    return;
  }
#if INCLUDE_JFR
  EventTeraHeapCardFaults e;
  if (e.should_commit()) {
    e.set_gcId(GCId::current());
    e.set_faults(faults);
    e.commit();
  }
#endif
}
