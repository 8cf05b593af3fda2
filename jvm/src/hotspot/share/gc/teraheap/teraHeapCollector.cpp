/*
 * What the module asks of the collector that runs H1.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapCollector.hpp"
#include "utilities/debug.hpp"

TeraHeapCollector* TeraHeapCollector::_current = NULL;

void TeraHeapCollector::set_current(TeraHeapCollector* collector) {
  assert(_current == NULL, "one collector runs H1");
  _current = collector;
}
