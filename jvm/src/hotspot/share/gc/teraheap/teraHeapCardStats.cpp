/*
 * How many of H2's cards a full GC read, and why some stayed unsummarized.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapBackwardTargets.hpp"
#include "gc/teraheap/teraHeapCardStats.hpp"
#include "logging/log.hpp"
#include "runtime/atomic.hpp"

volatile size_t TeraHeapCardStats::_marked_by_state[TeraHeapCardStats::states] = {0, 0, 0};
volatile size_t TeraHeapCardStats::_adjusted = 0;
volatile size_t TeraHeapCardStats::_adjusted_h1 = 0;
volatile size_t TeraHeapCardStats::_summarized = 0;
volatile size_t TeraHeapCardStats::_unsummarized[TeraHeapCardStats::unsummarized_reasons] = {0, 0, 0, 0};

void TeraHeapCardStats::add_marked(const size_t counts[states]) {
  for (int i = 0; i < states; i++) {
    if (counts[i] > 0) {
      Atomic::add(&_marked_by_state[i], counts[i]);
    }
  }
}

void TeraHeapCardStats::add_adjusted(size_t cards, size_t refer_to_h1, size_t summarized,
                                     const size_t why_not[unsummarized_reasons]) {
  Atomic::add(&_adjusted, cards);
  Atomic::add(&_adjusted_h1, refer_to_h1);
  Atomic::add(&_summarized, summarized);
  for (int i = 0; i < unsummarized_reasons; i++) {
    if (why_not[i] > 0) {
      Atomic::add(&_unsummarized[i], why_not[i]);
    }
  }
}

void TeraHeapCardStats::log_and_reset() {
  log_debug(gc, teraheap)("Read H2's cards: marking " SIZE_FORMAT " (dirty " SIZE_FORMAT ", youngergen " SIZE_FORMAT
                          ", oldgen " SIZE_FORMAT "), adjust " SIZE_FORMAT " (" SIZE_FORMAT " refer to H1, " SIZE_FORMAT " summarized)",
                          _marked_by_state[0] + _marked_by_state[1] + _marked_by_state[2], _marked_by_state[0],
                          _marked_by_state[1], _marked_by_state[2], _adjusted, _adjusted_h1, _summarized);
  for (int i = 0; i < states; i++) {
    _marked_by_state[i] = 0;
  }
  _adjusted = 0;
  _adjusted_h1 = 0;
  _summarized = 0;
  size_t unsummarized = 0;
  for (int i = 0; i < unsummarized_reasons; i++) {
    unsummarized += _unsummarized[i];
  }
  if (unsummarized > 0) {
    log_debug(gc, teraheap)("Cards referring to old objects left unsummarized: " SIZE_FORMAT " also refer to young objects, "
                            SIZE_FORMAT " to other labels' regions, " SIZE_FORMAT " to more than a card remembers, "
                            SIZE_FORMAT " in regions that remember " UINT32_FORMAT " objects already",
                            _unsummarized[refers_to_young], _unsummarized[links_other_label],
                            _unsummarized[too_many_targets], _unsummarized[region_set_full],
                            TeraHeapBackwardTargets::max_targets);
  }
  for (int i = 0; i < unsummarized_reasons; i++) {
    _unsummarized[i] = 0;
  }
}
