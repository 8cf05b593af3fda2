/*
 * How many of H2's cards a full GC read, and why some stayed unsummarized.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDSTATS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDSTATS_HPP

#include "gc/teraheap/teraHeapCards.hpp"
#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

// Cards read by this full GC, for the debug log: by marking, per state
// (dirty, youngergen, oldgen); by the adjust step, and of those, how many
// hold references into H1 and how many it summarized; of those referring
// to old objects that it did not summarize, why not. Any GC worker adds its
// counts: marking per region read, the adjust step per task.
class TeraHeapCardStats : AllStatic {
public:
  enum Unsummarized { refers_to_young, links_other_label, too_many_targets, region_set_full, unsummarized_reasons };
  static const int states = 3;

private:
  static volatile size_t _marked_by_state[states];
  static volatile size_t _adjusted;
  static volatile size_t _adjusted_h1;
  static volatile size_t _summarized;
  static volatile size_t _unsummarized[unsummarized_reasons];

public:
  // The index of a card's state among the counts; summarized counts as oldgen.
  static int state_index(TeraHeapCards::CardValue v) {
    return v == TeraHeapCards::dirty ? 0 : (v == TeraHeapCards::youngergen ? 1 : 2);
  }
  static void add_marked(const size_t counts[states]);
  static void add_adjusted(size_t cards, size_t refer_to_h1, size_t summarized,
                           const size_t why_not[unsummarized_reasons]);
  // Logs this full GC's counts (gc+teraheap=debug) and starts over.
  static void log_and_reset();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDSTATS_HPP
