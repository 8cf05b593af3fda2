// Replays made-up signal sequences through TeraHeap's H1 size policy
// (jvm/src/hotspot/share/gc/teraheap/teraHeapH1SizePolicy.cpp) and checks
// its decisions. Built and run by tests/unit/run.sh.
#include "gc/teraheap/teraHeapH1SizePolicy.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

typedef TeraHeapH1SizePolicy Policy;
static const size_t M = 1024 * 1024;

static int passed = 0, failed = 0;
static std::string current;
static bool current_ok;

static void check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("  FAILED: %s: %s\n", current.c_str(), what.c_str());
    current_ok = false;
  }
}

static void test(const char* name, const std::function<void()>& body) {
  current = name;
  current_ok = true;
  body();
  if (current_ok) { passed++; std::printf("PASS %s\n", name); }
  else            { failed++; std::printf("FAIL %s\n", name); }
}

// H2's data, unless a test says otherwise: more than the budget, so that it neither lowers the
// ceiling nor sets a whole-H2 level, and the signals decide alone.
static const size_t large_h2 = 8192 * M;

static Policy::Signals window(double gc_share, double io_share, size_t live, size_t other,
                              double h2_share = 0, size_t h2_data = large_h2) {
  Policy::Signals s;
  s.seconds = 2.0;
  s.gc_seconds = gc_share * 2.0;
  s.h2_seconds = h2_share * 2.0;
  s.io_stall_seconds = io_share * 2.0;
  s.major_faults = 1e6;   // enough to account for any wait
  s.gc_io_seconds = 0;
  s.h1_live = live;
  s.other_memory = other;
  s.h2_data = h2_data;
  return s;
}

static std::string mb(size_t bytes) { return std::to_string(bytes / M) + "M"; }

// A 4 GB budget, H1 between 64M and 3.6G, 2M alignment, 300M outside H1.
static const size_t budget = 4096 * M, h1_min = 64 * M, h1_max = 3686 * M, align = 2 * M;
static const size_t other = 300 * M;

int main() {
  const size_t reserve = (size_t)(budget * Policy::reserve_fraction);
  const size_t step = (size_t)(budget * Policy::step_fraction) / align * align;
  const size_t big_step = (size_t)(budget * Policy::step_fraction * Policy::max_steps) / align * align;

  test("starts at a quarter of the budget, within the ceiling and -Xms", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    check(p.target() == budget / 4, "target " + mb(p.target()) + ", expected " + mb(budget / 4));
    Policy tight;   // 3.5G outside H1: the ceiling is below a quarter
    tight.initialize(budget, h1_min, h1_max, align, 3500 * M);
    check(tight.target() == tight.ceiling(3500 * M) && tight.target() < budget / 4,
          "target " + mb(tight.target()) + " not held to the ceiling " + mb(tight.ceiling(3500 * M)));
    Policy large_min;   // -Xms above a quarter
    large_min.initialize(budget, 2048 * M, h1_max, align, other);
    check(large_min.target() == 2048 * M, "target " + mb(large_min.target()) + " below -Xms");
  });

  test("starts at -Xmx when -Xmx is the heap the JVM would have had, within the ceiling", [&] {
    const size_t xmx = budget / 2;
    Policy p;
    p.initialize(budget, h1_min, xmx, align, other, true);
    check(p.target() == xmx, "target " + mb(p.target()) + ", expected -Xmx " + mb(xmx));
    Policy chosen;   // -Xmx chosen from the budget: starts small
    chosen.initialize(budget, h1_min, xmx, align, other, false);
    check(chosen.target() == budget / 4, "target " + mb(chosen.target()) + ", expected " + mb(budget / 4));
    Policy tight;   // 3.5G outside H1: the ceiling is below -Xmx
    tight.initialize(budget, h1_min, h1_max, align, 3500 * M, true);
    check(tight.target() == tight.ceiling(3500 * M) && tight.target() < h1_max,
          "target " + mb(tight.target()) + " not held to the ceiling " + mb(tight.ceiling(3500 * M)));
  });

  test("the limit the collector holds H1 to rises to the floor at once, within the ceiling", [&] {
    // Triangle Count: a target of 362M when a full GC finds 338M live. Until the next decision
    // raises the target, the collector is held to 1.5x the live data, not to the target.
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other, false);   // target a quarter: 1024M
    check(p.limit(100 * M, other) == p.target(), "little live data: limit " + mb(p.limit(100 * M, other)));
    const size_t live = 1000 * M;
    check(p.limit(live, other) == p.floor(live) && p.floor(live) >= 1500 * M,
          "1000M live: limit " + mb(p.limit(live, other)) + ", expected the floor " + mb(p.floor(live)));
    check(p.target() == budget / 4, "the limit moved the target: " + mb(p.target()));
    // The memory-safe ceiling wins: with 3G outside H1 the floor of 1500M does not fit.
    check(p.limit(live, 3072 * M) == std::max(p.target(), p.ceiling(3072 * M)),
          "limit " + mb(p.limit(live, 3072 * M)) + " past the ceiling " + mb(p.ceiling(3072 * M)));
  });

  test("the ceiling keeps the budget less the reserve and the JVM's other memory", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t expected = (budget - reserve - other) / align * align;
    check(p.ceiling(other) == expected, "ceiling " + mb(p.ceiling(other)) + ", expected " + mb(expected));
    for (int i = 0; i < 10; i++) p.decide(window(0.5, 0.0, 0, other));
    check(p.target() == expected, "GC pressure took H1 to " + mb(p.target()) + ", not the ceiling");
    check(p.target() + other + reserve <= budget, "anonymous memory past budget less reserve");
  });

  test("TeraHeap's own work in full GCs (moves to H2) is not counted as GC loss", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t start = p.target();
    Policy::Decision d = p.decide(window(0.30, 0.0, 100 * M, other, 0.28));
    check(d.action == Policy::hold && d.to == start,
          "30% GC of which 28% moving groups: " + std::string(Policy::action_name(d.action)) + " to " + mb(d.to));
    check(d.gc_share < 0.021 && d.gc_share > 0.019, "GC share " + std::to_string(d.gc_share) + ", expected 2%");
    d = p.decide(window(0.30, 0.0, 100 * M, other, 0.10));
    const size_t two_steps = (size_t)(budget * Policy::step_fraction * 2) / align * align;
    check(d.action == Policy::grow && d.to == start + two_steps,
          "30% GC of which 10% moving: expected two steps up, got " + mb(d.to - d.from));
    d = p.decide(window(0.10, 0.20, 100 * M, other, 0.10));
    check(d.action == Policy::shrink, std::string("moves and I/O wait: ") + Policy::action_name(d.action));
    d = p.decide(window(0.01, 0.0, 100 * M, other, 0.05));   // timers out of step: never negative
    check(d.action == Policy::hold && d.gc_share == 0, "GC share " + std::to_string(d.gc_share));
  });

  test("I/O waits inside GC pauses count as I/O wait, not as GC time", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t start = p.target();
    // Full GCs that wait for H2's pages: 30% in GC, of which 20% waiting for I/O (also in the
    // I/O wait, which the kernel counts whoever waits).
    Policy::Signals s = window(0.30, 0.20, 100 * M, other);
    s.gc_io_seconds = 0.20 * s.seconds;
    Policy::Decision d = p.decide(s);
    check(d.gc_share > 0.099 && d.gc_share < 0.101, "GC share " + std::to_string(d.gc_share) + ", expected 10%");
    check(d.action == Policy::shrink && d.to < start,
          std::string("GC mostly waiting for H2's pages: ") + Policy::action_name(d.action) + " to " + mb(d.to));
    // Moves that wait for writeback: their time is left out once, not twice.
    s = window(0.30, 0.05, 100 * M, other, 0.10);
    s.gc_io_seconds = 0.05 * s.seconds;
    d = p.decide(s);
    check(d.gc_share > 0.199 && d.gc_share < 0.201, "GC share " + std::to_string(d.gc_share) + ", expected 20%");
    check(d.action == Policy::grow, std::string("20% GC against 5% I/O: ") + Policy::action_name(d.action));
  });

  test("I/O wait counts only as far as major faults account for it", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t start = p.target();
    // 30% of the interval waiting for I/O: writeback, or files read with system calls.
    Policy::Signals s = window(0.01, 0.30, 100 * M, other);
    s.major_faults = 0;
    Policy::Decision d = p.decide(s);
    check(d.action == Policy::hold && d.to == start && d.io_share == 0,
          std::string("I/O wait without faults: ") + Policy::action_name(d.action) + " to " + mb(d.to) +
          ", I/O share " + std::to_string(d.io_share));
    // One fault accounts for its bound's worth, below significance.
    s.major_faults = 1;
    d = p.decide(s);
    const double few = Policy::max_fault_seconds / s.seconds;
    check(d.action == Policy::hold && d.io_share > few * 0.99 && d.io_share < few * 1.01 &&
          few < Policy::significant_share,
          std::string("1 fault: ") + Policy::action_name(d.action) + ", I/O share " + std::to_string(d.io_share));
    // Enough faults for part of the wait (20% of the interval): that part shrinks, by its steps.
    const double faults = (double)(long)(0.20 * s.seconds / Policy::max_fault_seconds + 0.5);
    s.major_faults = faults;
    d = p.decide(s);
    const double part = faults * Policy::max_fault_seconds / s.seconds;
    check(d.action == Policy::shrink && d.io_share > part * 0.99 && d.io_share < part * 1.01 &&
          part > 0.19 && part < 0.21,
          std::to_string(faults) + " faults: " + Policy::action_name(d.action) + ", I/O share " +
          std::to_string(d.io_share));
    const size_t two_steps = (size_t)(budget * Policy::step_fraction * 2) / align * align;
    check(d.to == start - two_steps, "shrank by " + mb(d.from - d.to) + ", expected " + mb(two_steps));
    // Faults for all of it: the wait counts whole, no more.
    s.major_faults = 1000;
    d = p.decide(s);
    check(d.action == Policy::shrink && d.io_share > 0.299 && d.io_share < 0.301,
          "I/O share " + std::to_string(d.io_share) + " with faults for all of it");
  });

  test("a shrink on wait the faults bound is undone by GC time above that bound, not above the wait", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    Policy::Signals s = window(0.01, 0.30, 100 * M, other);   // 30% measured ...
    s.major_faults = (double)(long)(0.10 * s.seconds / Policy::max_fault_seconds + 0.5);   // ... 10% counted
    Policy::Decision d = p.decide(s);
    check(d.action == Policy::shrink && d.io_share < 0.11, std::string("first: ") + Policy::action_name(d.action));
    d = p.decide(window(0.20, 0.0, 100 * M, other));   // 20% GC: more than the 10% the shrink saved
    check(d.action == Policy::grow && d.undone, std::string("20% GC after a shrink on 10%: ") +
          Policy::action_name(d.action) + (d.undone ? ", undone" : ", not undone"));
  });

  test("H2's data that fits in half the budget keeps its room in the page cache", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t fits = 1500 * M, too_big = budget / 2 + 100 * M;
    const size_t slack = (size_t)(budget * Policy::h2_slack_fraction);
    const size_t expected = (budget - other - fits - slack) / align * align;
    check(p.ceiling(other, fits) == expected, "ceiling " + mb(p.ceiling(other, fits)) + " with " + mb(fits) +
          " in H2, expected " + mb(expected));
    // A little H2 data takes no more than the reserve.
    check(p.ceiling(other, 100 * M) == p.ceiling(other), "100M in H2 lowered the ceiling past the reserve");
    check(p.ceiling(other, too_big) == p.ceiling(other), "H2 data no page cache can hold lowered the ceiling");
    // GC pressure grows H1 up to the ceiling that leaves H2 its room, no further.
    Policy::Decision d;
    for (int i = 0; i < 20; i++) {
      Policy::Signals s = window(0.5, 0.0, 100 * M, other);
      s.h2_data = fits;
      d = p.decide(s);
    }
    check(d.to == p.ceiling(other, fits) && d.ceiling == d.to, "ended at " + mb(d.to) + ", expected " + mb(p.ceiling(other, fits)));
    // More H2 data than that: the target follows the ceiling down.
    Policy::Signals s = window(0.0, 0.0, 100 * M, other);
    s.h2_data = fits + 300 * M;
    d = p.decide(s);
    check(d.action == Policy::fit && d.to == p.ceiling(other, fits + 300 * M), "not fitted: " + mb(d.to));
    // The floor (live data) comes before H2's room, the memory-safe ceiling before both.
    s = window(0.0, 0.0, 1800 * M, other);   // floor 2700M
    s.h2_data = fits;
    d = p.decide(s);
    check(d.to == d.floor && d.floor > p.ceiling(other, fits), "live data held below its floor: " + mb(d.to));
    s = window(0.0, 0.0, 3000 * M, other);   // floor 4500M > the safe ceiling
    s.h2_data = fits;
    d = p.decide(s);
    check(d.to == p.ceiling(other), "past the memory-safe ceiling: " + mb(d.to));
  });

  // Past half the budget: 2500M of H2 data under 4096M, 300M outside H1, 204M of slack leave the
  // page cache room for all of it with H1 at 1090M or less.
  const size_t big_h2 = 2500 * M;
  const size_t whole = (budget - other - big_h2 - (size_t)(budget * Policy::h2_slack_fraction)) / align * align;
  auto with_h2 = [&](double gc_share, double io_share, size_t live) {
    Policy::Signals s = window(gc_share, io_share, live, other);
    s.h2_data = big_h2;
    return s;
  };

  test("H2's data past half the budget: a shrink stops where the page cache holds it whole, then waits", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    check(p.whole_h2_level(other, big_h2) == whole, "level " + mb(p.whole_h2_level(other, big_h2)) + ", expected " + mb(whole));
    check(p.whole_h2_level(other, 0) == 0 && p.whole_h2_level(other, budget) == 0, "a level for no H2 data, or too much");
    for (int i = 0; i < 10; i++) p.decide(with_h2(0.5, 0.0, 100 * M));
    check(p.target() == p.ceiling(other), "no room kept for H2 past half the budget: " + mb(p.target()));
    Policy::Decision d;
    do {
      d = p.decide(with_h2(0.01, 0.30, 100 * M));
      check(d.action == Policy::shrink, std::string("I/O wait: ") + Policy::action_name(d.action));
    } while (d.to > whole && d.action == Policy::shrink);
    check(d.to == whole && d.at_whole && d.from - whole < big_step, "shrank " + mb(d.from) + " -> " + mb(d.to) +
          ", expected a step that stops at " + mb(whole));
    check(d.whole_hold_seconds == Policy::hold_off_seconds, "shrinks below the level not held off");
    // The wait goes on while the evicted pages are read again: no shrink below the level yet ...
    const int held_windows = (int)(Policy::hold_off_seconds / 2) - 1;   // windows are 2 s
    for (int i = 0; i < held_windows; i++) {
      d = p.decide(with_h2(0.01, 0.30, 100 * M));
      check(d.action == Policy::hold && d.to == whole && d.shrink_held, "below the level in window " + std::to_string(i) +
            ": " + Policy::action_name(d.action) + " to " + mb(d.to));
    }
    // The JVM's other memory grows by 40M: the level falls, and H1 follows it, as it does when
    // it rises again.
    Policy::Signals more = with_h2(0.01, 0.01, 100 * M);
    more.other_memory = other + 40 * M;
    d = p.decide(more);
    check(d.action == Policy::fit && d.at_whole && d.to == whole - 40 * M, std::string("level fell 40M: ") +
          Policy::action_name(d.action) + " to " + mb(d.to));
    d = p.decide(with_h2(0.01, 0.01, 100 * M));
    check(d.action == Policy::raise && d.at_whole && d.to == whole, std::string("level rose 40M: ") +
          Policy::action_name(d.action) + " to " + mb(d.to));
    // ... but a wait that outlasts the hold is not H2's, and shrinks go on to the floor.
    d = p.decide(with_h2(0.01, 0.30, 100 * M));
    check(d.action == Policy::shrink && d.to < whole, std::string("after the hold: ") + Policy::action_name(d.action) + " to " + mb(d.to));
    for (int i = 0; i < 10; i++) d = p.decide(with_h2(0.01, 0.30, 100 * M));
    check(d.to == 150 * M, "ended at " + mb(d.to) + ", expected the floor");
    // A level below the floor is none.
    d = p.decide(with_h2(0.01, 0.30, 800 * M));
    check(d.whole_level == 0 && d.to == 1200 * M, "level " + mb(d.whole_level) + " below the floor 1200M; at " + mb(d.to));
  });

  test("a grow past that level needs more GC time than the I/O wait the shrink onto it saved", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(with_h2(0.5, 0.0, 100 * M));
    Policy::Decision d;
    for (int i = 0; i < 5 && p.target() > whole; i++) p.decide(with_h2(0.01, 0.30, 100 * M));
    check(p.target() == whole, "not at the level: " + mb(p.target()));
    d = p.decide(with_h2(0.15, 0.0, 100 * M));   // 15% GC against the 30% I/O wait
    check(d.action == Policy::hold && d.at_whole && d.to == whole,
          std::string("grew past on less GC time: ") + Policy::action_name(d.action) + " to " + mb(d.to));
    // The level falls (other memory grows 40M) and GC time comes: H1 stays at the level.
    Policy::Signals more = with_h2(0.15, 0.0, 100 * M);
    more.other_memory = other + 40 * M;
    d = p.decide(more);
    check(d.at_whole && d.to == whole - 40 * M, "grew from above a level that fell: " + mb(d.to));
    d = p.decide(with_h2(0.40, 0.0, 100 * M));
    check(d.action == Policy::grow && d.to > whole && !d.at_whole, "40% GC did not grow past the level: " + mb(d.to));
    const size_t past = d.to;
    d = p.decide(with_h2(0.01, 0.01, 100 * M));
    check(d.action == Policy::hold && d.to == past, "went back to the level without a shrink: " + mb(d.to));
    // Below the level, a grow up to it is free.
    for (int i = 0; i < 20; i++) p.decide(with_h2(0.01, 0.30, 100 * M));
    check(p.target() < whole, "not below the level: " + mb(p.target()));
    for (int i = 0; i < 5; i++) d = p.decide(with_h2(0.15, 0.0, 100 * M));
    check(d.to == whole, "grew to " + mb(d.to) + ", expected to stop at " + mb(whole));
    // A policy that never stopped at the level grows past it on any GC loss that dominates.
    Policy q;
    q.initialize(budget, h1_min, h1_max, align, other);
    check(q.target() < whole, "starts above the level");
    d = q.decide(with_h2(0.15, 0.0, 100 * M));
    check(d.action == Policy::grow && d.to > whole, "held at a level no shrink stopped at: " + mb(d.to));
  });

  test("a shrink onto that level is not undone, and one held off is called held", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(with_h2(0.5, 0.0, 100 * M));
    Policy::Decision d = p.decide(with_h2(0.01, 0.30, 100 * M));
    for (int i = 0; i < 5 && p.target() > whole; i++) d = p.decide(with_h2(0.01, 0.30, 100 * M));
    check(d.action == Policy::shrink && d.to == whole && d.at_whole, "no shrink onto the level: " + mb(d.to));
    // A build stage's GC time beats the scan's I/O wait: H1 grows past the level, but that is
    // no undone shrink, and the next scan's shrink is not held off above the level.
    d = p.decide(with_h2(0.40, 0.0, 100 * M));
    check(d.action == Policy::grow && d.to > whole && !d.undone && d.held_seconds == 0,
          std::string("grow past the level: ") + Policy::action_name(d.action) + " to " + mb(d.to) +
          (d.undone ? ", called an undo" : "") + ", held " + std::to_string(d.held_seconds) + " s");
    for (int i = 0; i < 5 && p.target() > whole; i++) d = p.decide(with_h2(0.01, 0.30, 100 * M));
    check(d.to == whole && d.at_whole && !d.shrink_held, "the next scan did not shrink onto the level: " + mb(d.to) +
          (d.at_whole ? "" : ", not at the level") + (d.shrink_held ? ", held" : ""));
    // While the stop holds shrinks off and the level falls, H1 follows it: that is no shrink,
    // and a grow after it undoes nothing.
    Policy::Signals more = with_h2(0.01, 0.30, 100 * M);
    more.other_memory = other + 40 * M;
    d = p.decide(more);
    check(d.action == Policy::fit && d.shrink_held && d.to == whole - 40 * M,
          std::string("held shrink while the level fell: ") + Policy::action_name(d.action) + " to " + mb(d.to));
    d = p.decide(with_h2(0.40, 0.0, 100 * M));
    check(d.action == Policy::grow && !d.undone && d.held_seconds == 0,
          std::string("grow after following the level: ") + Policy::action_name(d.action) + (d.undone ? ", an undo" : ""));
    // An undone shrink's hold keeps a shrink above the level, and says so.
    Policy q;
    q.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) q.decide(with_h2(0.5, 0.0, 100 * M));
    d = q.decide(with_h2(0.01, 0.10, 100 * M));
    check(d.action == Policy::shrink && d.to > whole, "a small shrink went to " + mb(d.to));
    d = q.decide(with_h2(0.40, 0.0, 100 * M));
    check(d.undone, "the small shrink was not undone");
    d = q.decide(with_h2(0.01, 0.30, 100 * M));
    check(d.action == Policy::hold && d.shrink_held && !d.at_whole, std::string("during the undo's hold: ") +
          Policy::action_name(d.action) + " to " + mb(d.to) + (d.shrink_held ? "" : ", not called held"));
  });

  test("the GC time a grow past that level must beat is capped, and forgotten with the level", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(with_h2(0.5, 0.0, 100 * M));
    // Without PSI the I/O estimate can pass the whole interval (several threads waiting).
    for (int i = 0; i < 5 && p.target() > whole; i++) p.decide(with_h2(0.01, 1.40, 100 * M));
    check(p.target() == whole, "not at the level: " + mb(p.target()));
    Policy::Decision d = p.decide(with_h2(0.45, 0.0, 100 * M));
    check(d.action == Policy::hold && d.to == whole, "45% GC against a capped 50%: " + mb(d.to));
    d = p.decide(with_h2(0.60, 0.0, 100 * M));
    check(d.action == Policy::grow && d.to > whole, "60% GC held at the level by a 140% I/O estimate: " + mb(d.to));
    // Back at the level, then below it once the hold is over.
    for (int i = 0; i < 20; i++) p.decide(with_h2(0.01, 0.30, 100 * M));
    check(p.target() < whole, "not below the level: " + mb(p.target()));
    // H2 empties (its regions freed) and fills again: the stop went with the level, and a grow
    // from below passes it on GC time that would not have beaten the stop.
    d = p.decide(window(0.01, 0.01, 100 * M, other, 0, 0));
    check(d.whole_level == 0, "a level with H2 empty: " + mb(d.whole_level));
    for (int i = 0; i < 5; i++) d = p.decide(with_h2(0.15, 0.0, 100 * M));
    check(d.to > whole, "a forgotten stop held a grow at the level: " + mb(d.to));
  });

  test("I/O wait that dominates shrinks H1 step by step down to 1.5x the live data", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t live = 600 * M;
    size_t last = p.target();
    for (int i = 0; i < 40; i++) {
      Policy::Decision d = p.decide(window(0.01, 0.30, live, other));
      check(d.to <= last, "grew under I/O pressure at step " + std::to_string(i));
      check(last - d.to <= big_step, "shrank by more than the largest step");
      check(d.to >= 900 * M, "went below the floor: " + mb(d.to));
      if (d.to < last) check(d.action == Policy::shrink, "a shrink not called shrink");
      last = d.to;
    }
    check(last == 900 * M, "ended at " + mb(last) + ", expected the floor 900M");
    Policy::Decision d = p.decide(window(0.01, 0.30, live, other));
    check(d.action == Policy::hold && d.to == 900 * M, "at the floor a shrink must hold");
  });

  test("GC time that dominates grows H1 step by step up to the ceiling", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 40; i++) p.decide(window(0.0, 0.5, 0, other));   // down to the minimum
    check(p.target() == h1_min, "did not reach -Xms: " + mb(p.target()));
    size_t last = p.target();
    for (int i = 0; i < 40; i++) {
      Policy::Decision d = p.decide(window(0.25, 0.02, 100 * M, other));
      check(d.to >= last, "shrank under GC pressure");
      check(d.to - last <= big_step, "grew by more than the largest step");
      check(d.to <= d.ceiling, "above the ceiling");
      last = d.to;
    }
    check(last == p.ceiling(other), "ended at " + mb(last) + ", expected the ceiling " + mb(p.ceiling(other)));
  });

  test("small or balanced losses hold", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 3; i++) p.decide(window(0.0, 0.5, 100 * M, other));
    const size_t t = p.target();
    const double cases[][2] = { {0.02, 0.01}, {0.0, 0.04}, {0.10, 0.09}, {0.30, 0.25}, {0.0, 0.0} };
    for (auto& c : cases) {
      Policy::Decision d = p.decide(window(c[0], c[1], 100 * M, other));
      check(d.action == Policy::hold && d.to == t,
            "GC " + std::to_string(c[0]) + " I/O " + std::to_string(c[1]) + " moved to " + mb(d.to));
    }
  });

  test("a step grows with the loss: one step just past significance, three at most", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 40; i++) p.decide(window(0.0, 0.5, 0, other));
    Policy::Decision d = p.decide(window(0.06, 0.0, 0, other));
    check(d.action == Policy::grow && d.to - d.from == step,
          "6% GC: grew by " + mb(d.to - d.from) + ", expected " + mb(step));
    d = p.decide(window(0.15, 0.0, 0, other));
    const size_t one_and_half = (size_t)(budget * Policy::step_fraction * 1.5) / align * align;
    check(d.to - d.from == one_and_half, "15% GC: grew by " + mb(d.to - d.from));
    d = p.decide(window(0.90, 0.0, 0, other));
    check(d.to - d.from == big_step, "90% GC: grew by " + mb(d.to - d.from) + ", expected " + mb(big_step));
  });

  test("growing memory outside H1 lowers the target even while GC dominates", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(window(0.5, 0.0, 100 * M, other));   // up to the ceiling
    const size_t more = 1500 * M;
    Policy::Decision d = p.decide(window(0.40, 0.0, 100 * M, more));
    check(d.to <= budget - reserve - more, "H1 target " + mb(d.to) + " leaves no reserve");
    check(d.to == d.ceiling, "not pulled to the new ceiling");
    check(d.to < d.from && d.action == Policy::fit,
          std::string("not lowered as a fit: ") + Policy::action_name(d.action));
    d = p.decide(window(0.0, 0.0, 100 * M, more));
    check(d.action == Policy::hold, "a quiet interval at the ceiling should hold");
  });

  test("the ceiling wins over the floor: live data never pushes the JVM past the budget", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    Policy::Decision d = p.decide(window(0.5, 0.0, 3000 * M, other));  // 1.5x = 4500M > ceiling
    check(d.to == d.ceiling, "target " + mb(d.to) + " not at the ceiling " + mb(d.ceiling));
    check(d.to + other + reserve <= budget, "past the budget");
  });

  test("live data that grows raises the target to the floor under I/O pressure", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 40; i++) p.decide(window(0.0, 0.5, 200 * M, other));
    check(p.target() == 300 * M, "floor for 200M live is 300M, got " + mb(p.target()));
    Policy::Decision d = p.decide(window(0.0, 0.5, 1000 * M, other));
    check(d.to == 1500 * M, "target " + mb(d.to) + ", expected 1500M");
    check(d.action == Policy::raise, std::string("action ") + Policy::action_name(d.action));
  });

  test("phases: an allocation phase grows H1, a scanning phase shrinks it, and back", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    std::vector<size_t> seen;
    for (int i = 0; i < 12; i++) seen.push_back(p.decide(window(0.01, 0.20, 400 * M, other)).to);
    const size_t low = seen.back();
    for (int i = 0; i < 12; i++) seen.push_back(p.decide(window(0.30, 0.02, 400 * M, other)).to);
    const size_t high = seen.back();
    for (int i = 0; i < 12; i++) seen.push_back(p.decide(window(0.01, 0.20, 400 * M, other)).to);
    check(low == 600 * M, "scan phase ended at " + mb(low));
    check(high == p.ceiling(other), "allocation phase ended at " + mb(high));
    check(seen.back() == 600 * M, "second scan phase ended at " + mb(seen.back()));
    for (size_t t : seen) check(t % align == 0, "unaligned target " + std::to_string(t));
  });

  test("a shrink undone by GC time while the I/O wait stays is held off, longer each time in a row", [&] {
    // SVD++ under a cap smaller than its data in H2: the I/O wait stays whatever H1's size, each
    // shrink only brings minor GCs back to back, and the next decision grows H1 again.
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(window(0.5, 0.0, 100 * M, other));
    const size_t top = p.target();
    Policy::Decision d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink && !d.undone, std::string("I/O wait: ") + Policy::action_name(d.action));
    d = p.decide(window(0.30, 0.15, 100 * M, other));
    check(d.action == Policy::grow && d.undone, "the grow after it was not taken as undoing it");
    check(d.to == top && d.held_level == top && d.held_seconds == Policy::hold_off_seconds,
          "grew to " + mb(d.to) + ", no shrink below " + mb(d.held_level) + " for " + std::to_string(d.held_seconds) + "s");
    const int held_windows = (int)(Policy::hold_off_seconds / 2) - 1;   // windows are 2 s
    for (int i = 0; i < held_windows; i++) {
      d = p.decide(window(0.02, 0.20, 100 * M, other));
      check(d.action == Policy::hold && d.to == top && d.shrink_held,
            "shrink " + std::to_string(i) + " while held off: " + Policy::action_name(d.action) + " to " + mb(d.to));
    }
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink && !d.shrink_held, std::string("after the hold: ") + Policy::action_name(d.action));
    d = p.decide(window(0.30, 0.15, 100 * M, other));
    check(d.undone && d.held_seconds == 2 * Policy::hold_off_seconds,
          "second undo in a row held off for " + std::to_string(d.held_seconds) + "s, expected twice as long");
    for (int i = 0; i < 2 * held_windows + 1; i++) p.decide(window(0.02, 0.20, 100 * M, other));
    check(p.target() == top, "shrank while held off: " + mb(p.target()));
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink, "no shrink after the longer hold");
    // A shrink that stands (no grow within the undo window) resets the hold to its first length.
    for (int i = 0; i < 3; i++) p.decide(window(0.01, 0.01, 100 * M, other));
    p.decide(window(0.5, 0.0, 100 * M, other));
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink, "no shrink after the standing one");
    d = p.decide(window(0.30, 0.15, 100 * M, other));
    check(d.undone && d.held_seconds == Policy::hold_off_seconds,
          "after a shrink that stood, held off for " + std::to_string(d.held_seconds) + "s");
  });

  test("with H2 empty, I/O wait neither shrinks H1 nor holds a later shrink off", [&] {
    // Linear regression at 512M: 1 s after start the JVM read its jars (page cache dropped),
    // H1 shrank with nothing in H2, the next GC grew it back, and the undo's hold kept the
    // first scan's shrink off the level where H2 fits.
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    const size_t start = p.target();
    Policy::Decision d = p.decide(window(0.01, 0.20, 50 * M, other, 0, 0));
    check(d.action == Policy::hold && d.to == start && !d.shrink_held,
          std::string("I/O wait with H2 empty: ") + Policy::action_name(d.action) + " to " + mb(d.to));
    // More GC time than that I/O wait: a grow that would undo a shrink, had there been one.
    d = p.decide(window(0.30, 0.0, 50 * M, other, 0, 0));
    check(d.action == Policy::grow && !d.undone && d.held_seconds == 0,
          std::string("the grow after it: ") + Policy::action_name(d.action) + (d.undone ? ", an undo" : "") +
          ", held " + std::to_string(d.held_seconds) + " s");
    const size_t grown = d.to;
    // H2 fills (more than any page cache holds: no whole-H2 level) and the scan's I/O wait
    // comes within the hold an undo would have set: H1 shrinks by the whole step it asks for.
    d = p.decide(window(0.01, 0.60, 50 * M, other));
    check(d.action == Policy::shrink && d.to == grown - big_step && !d.shrink_held,
          std::string("the first scan: ") + Policy::action_name(d.action) + " " + mb(grown) + " -> " + mb(d.to) +
          (d.shrink_held ? ", held" : ""));
    // The bounds still apply with H2 empty: other memory that grows lowers the target.
    d = p.decide(window(0.01, 0.60, 50 * M, budget - reserve - 1000 * M, 0, 0));
    check(d.action == Policy::fit && d.to == d.ceiling, std::string("H2 empty, ceiling fell: ") +
          Policy::action_name(d.action) + " to " + mb(d.to));
  });

  test("while held off, shrinks still go down to where the undone one started", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(window(0.5, 0.0, 100 * M, other));
    p.decide(window(0.02, 0.20, 100 * M, other));
    const size_t level = p.target();
    Policy::Decision d = p.decide(window(0.02, 0.20, 100 * M, other));   // this one goes too far
    check(d.action == Policy::shrink && d.from == level, "no second shrink");
    d = p.decide(window(0.30, 0.15, 100 * M, other));
    check(d.undone && d.held_level == level && d.to > level,
          "undo: level " + mb(d.held_level) + ", expected " + mb(level) + ", grew to " + mb(d.to));
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink && d.to == level && d.shrink_held,
          std::string("a shrink while held off: ") + Policy::action_name(d.action) + " to " + mb(d.to) + ", expected " + mb(level));
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::hold && d.to == level, "went below the level: " + mb(d.to));
  });

  test("while held off, a sliver above the level (the ceiling moved a few MB) is no room for a shrink", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(window(0.5, 0.0, 100 * M, other));
    const size_t top = p.target();
    p.decide(window(0.02, 0.20, 100 * M, other));
    Policy::Decision d = p.decide(window(0.30, 0.15, 100 * M, other));
    check(d.undone && d.held_level == top, "not undone at the ceiling");
    // Other memory falls by 4M: the ceiling rises 4M, and GC time takes the target there.
    d = p.decide(window(0.30, 0.0, 100 * M, other - 4 * M));
    check(d.to > top && d.to - top <= 4 * M, "not at the raised ceiling: " + mb(d.to));
    d = p.decide(window(0.02, 0.20, 100 * M, other - 4 * M));
    check(d.action == Policy::hold && d.to > top && d.shrink_held,
          std::string("a sliver shrink: ") + Policy::action_name(d.action) + " " + mb(d.from) + " -> " + mb(d.to));
  });

  test("a grow on less GC time than the I/O wait a shrink set out to save, or later, does not hold shrinks off", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    for (int i = 0; i < 10; i++) p.decide(window(0.5, 0.0, 100 * M, other));
    Policy::Decision d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink, "no shrink");
    d = p.decide(window(0.15, 0.08, 100 * M, other));   // 15% GC against the 20% I/O wait
    check(d.action == Policy::grow && !d.undone && d.held_seconds == 0, "a grow that cost less held shrinks off");
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink, std::string("after that grow: ") + Policy::action_name(d.action));
    // A new phase: the scan phase's shrinks stopped more than the undo window ago.
    for (int i = 0; i < 3; i++) p.decide(window(0.01, 0.01, 100 * M, other));
    d = p.decide(window(0.60, 0.0, 100 * M, other));
    check(d.action == Policy::grow && !d.undone && d.held_seconds == 0, "a later phase's grow held shrinks off");
    d = p.decide(window(0.02, 0.20, 100 * M, other));
    check(d.action == Policy::shrink, std::string("the next scan phase: ") + Policy::action_name(d.action));
  });

  test("an empty interval holds", [&] {
    Policy p;
    p.initialize(budget, h1_min, h1_max, align, other);
    Policy::Signals s = window(0.5, 0.0, 0, other);
    s.seconds = 0;
    s.gc_seconds = 0;
    check(p.decide(s).action == Policy::hold, "decided on nothing");
  });

  test("young generation: its usual share, less what the old one needs above the live data", [&] {
    const double share = 1.0 / 3;
    const size_t old_max = 4096 * M;  // larger than any target here: the old generation's need counts whole
    check(Policy::young_part(600 * M, share, 30 * M, old_max, align) == 200 * M,
          "little live data: " + mb(Policy::young_part(600 * M, share, 30 * M, old_max, align)) + ", expected the share 200M");
    // Triangle Count: 352M live in a 654M target. The old generation gets 1.5x the live data.
    const size_t tc = Policy::young_part(654 * M, share, 352 * M, old_max, align);
    check(tc == 126 * M, "352M live in 654M: young " + mb(tc) + ", expected 126M");
    check(654 * M - tc >= (size_t)(352 * M * Policy::live_headroom), "old generation below 1.5x live");
    // Live data above the target: a quarter of the share is left to eden and survivors.
    const size_t least = Policy::young_part(400 * M, share, 300 * M, old_max, align);
    check(least == 32 * M, "300M live in 400M: young " + mb(least) + ", expected a quarter of 133M, aligned: 32M");
    for (size_t t : {tc, least}) check(t % align == 0, "unaligned " + std::to_string(t));
  });

  test("young generation: room the old one cannot take, past its reserved size, stays the young one's", [&] {
    // Triangle Count at -Xmx512m: the old generation full at its reserved 341.5M (two thirds),
    // 341M live. Its need of 1.5x the live data cannot be met; the target less the old
    // generation's maximum goes to the young one, not a quarter of its share.
    const double share = 1.0 / 3;
    const size_t old_max = 683 * M / 2;
    const size_t full = Policy::young_part(512 * M, share, 341 * M, old_max, align);
    check(full >= 512 * M - old_max - align && full <= 512 * M - old_max,
          "target 512M, old max 341.5M: young " + mb(full) + ", expected 170.5M less alignment");
    const size_t lower = Policy::young_part(448 * M, share, 341 * M, old_max, align);
    check(lower >= 448 * M - old_max - align && lower <= 448 * M - old_max,
          "target 448M: young " + mb(lower) + ", expected 106.5M less alignment");
    // Below the old generation's maximum plus a quarter of the share, the quarter holds.
    const size_t floor = Policy::young_part(360 * M, share, 341 * M, old_max, align);
    check(floor == 30 * M, "target 360M: young " + mb(floor) + ", expected a quarter of 120M, aligned: 30M");
    // With room to spare, the old generation's maximum changes nothing.
    check(Policy::young_part(600 * M, share, 30 * M, old_max, align) == 200 * M, "little live data: not the share");
  });

  test("young generation: survivors sized for a larger one take at most half of it, eden not past its ask", [&] {
    // A young share of 185M; the collector asks for a 60M eden and 128M survivors, as it does
    // while a cache is being built and nearly everything a minor GC copies survives.
    const size_t young = 185 * M, space_align = 512 * 1024;
    size_t eden = 60 * M, survivor = 128 * M, taken = 0;
    Policy::fit_young(young, space_align, &eden, &survivor, &taken);
    check(eden + 2 * survivor <= young, "eden " + mb(eden) + " + 2 x survivor " + mb(survivor) + " exceeds " + mb(young));
    check(2 * survivor <= young / 2 && survivor + space_align > young / 4,
          "survivors " + mb(survivor) + " not a quarter of " + mb(young) + " each");
    check(eden == 60 * M, "eden " + mb(eden) + " changed, though it fits beside the survivors");
    // An eden that does not fit either gets the rest.
    size_t e1 = 150 * M, s1 = 128 * M;
    Policy::fit_young(young, space_align, &e1, &s1, &taken);
    check(e1 + 2 * s1 <= young && e1 + 2 * s1 + 2 * space_align > young && e1 >= young / 2,
          "eden " + mb(e1) + " not the rest of " + mb(young) + " beside survivors of " + mb(s1));
    check(e1 % space_align == 0 && s1 % space_align == 0, "unaligned");
    // What fits is left alone.
    size_t e2 = 40 * M, s2 = 20 * M;
    taken = 0;
    Policy::fit_young(young, space_align, &e2, &s2, &taken);
    check(e2 == 40 * M && s2 == 20 * M, "changed sizes that fit: " + mb(e2) + ", " + mb(s2));
    // A young share smaller than the alignment still leaves a usable eden and survivor.
    size_t e3 = 60 * M, s3 = 128 * M;
    Policy::fit_young(space_align, space_align, &e3, &s3, &taken);
    check(e3 == space_align && s3 == space_align, "tiny share: " + std::to_string(e3) + ", " + std::to_string(s3));
  });

  test("young generation: eden squeezed once is not squeezed again at every minor GC", [&] {
    // The collector asks each time for its current eden plus a fifth, and for survivors of
    // 75M (what Naive Bayes's minor GCs copied while its cache was built), in a young share
    // of 157M. Scaling eden and survivors by one factor took eden from 80M to 7M in 9 GCs.
    const size_t young = 157 * M, space_align = 512 * 1024;
    size_t eden = 80 * M, taken = 0;
    for (int gc = 0; gc < 20; gc++) {
      size_t wanted_eden = eden + eden / 5, survivor = 75 * M;
      Policy::fit_young(young, space_align, &wanted_eden, &survivor, &taken);
      eden = wanted_eden;
      check(eden >= young / 2, "GC " + std::to_string(gc) + ": eden " + mb(eden) + " below half of " + mb(young));
    }
  });

  test("young generation: eden cut by a smaller share gets back what it asked for once the share grows", [&] {
    // Triangle Count: a shrink cut the young share to 42M and eden from the 63M the collector
    // asked for to 22M; then the share grew back, but the collector, running only full GCs,
    // asks for its current eden and no more.
    const size_t space_align = 512 * 1024;
    size_t taken = 0, eden = 63 * M, survivor = 10 * M;
    Policy::fit_young(42 * M, space_align, &eden, &survivor, &taken);
    check(eden == 22 * M && survivor == 10 * M, "cut: eden " + mb(eden) + ", survivor " + mb(survivor) + "; expected 22M, 10M");
    check(taken == 63 * M, "the eden asked for not kept: " + mb(taken));
    // Cut again on a smaller ask: the larger one is kept.
    size_t e1 = 30 * M, s1 = 10 * M;
    Policy::fit_young(42 * M, space_align, &e1, &s1, &taken);
    check(taken == 63 * M && e1 == 22 * M, "second cut: kept " + mb(taken) + ", eden " + mb(e1));
    // Cut on a larger ask: that one is kept.
    size_t e1b = 70 * M, s1b = 10 * M;
    Policy::fit_young(42 * M, space_align, &e1b, &s1b, &taken);
    check(taken == 70 * M && e1b == 22 * M, "larger cut: kept " + mb(taken) + ", eden " + mb(e1b));
    taken = 63 * M;
    // The share grows part way: eden takes the room, and the rest stays owed.
    size_t e2 = 22 * M, s2 = 10 * M;
    Policy::fit_young(70 * M, space_align, &e2, &s2, &taken);
    check(e2 == 50 * M && s2 == 10 * M && taken == 63 * M,
          "part way: eden " + mb(e2) + ", survivor " + mb(s2) + ", owed " + mb(taken) + "; expected 50M, 10M, 63M");
    // Room for all of it: eden is asked back up to where the collector had it, no further.
    size_t e3 = 50 * M, s3 = 10 * M;
    Policy::fit_young(170 * M, space_align, &e3, &s3, &taken);
    check(e3 == 63 * M, "given back: eden " + mb(e3) + ", expected 63M");
    // Owed until eden has grown to it: the collector may not resize eden when asked.
    Policy::settle_eden_taken(50 * M, &taken);
    check(taken == 63 * M, "eden still 50M, yet nothing owed");
    Policy::settle_eden_taken(63 * M, &taken);
    check(taken == 0, "eden back at 63M, yet " + mb(taken) + " owed");
    // Nothing owed: an eden that fits is left as asked, smaller or not.
    size_t e4 = 20 * M, s4 = 10 * M;
    Policy::fit_young(170 * M, space_align, &e4, &s4, &taken);
    check(e4 == 20 * M, "nothing owed, yet eden " + mb(e4));
  });

  test("young generation: eden is given back beside survivors sized for a larger young generation", [&] {
    // Owed 63M; the collector asks for its current 18M eden and 80M survivors in a 170M share:
    // the survivors get a quarter each, and eden the rest up to what is owed.
    const size_t space_align = 512 * 1024;
    size_t taken = 63 * M, eden = 18 * M, survivor = 80 * M;
    Policy::fit_young(170 * M, space_align, &eden, &survivor, &taken);
    check(survivor <= 170 * M / 4 && eden == 63 * M && eden + 2 * survivor <= 170 * M,
          "eden " + mb(eden) + ", survivor " + mb(survivor) + "; expected 63M beside a quarter each");
    // Less room than owed: eden takes all of it.
    size_t e1 = 18 * M, s1 = 80 * M;
    Policy::fit_young(100 * M, space_align, &e1, &s1, &taken);
    check(e1 + 2 * s1 <= 100 * M && e1 + 2 * s1 + 2 * space_align > 100 * M && e1 < 63 * M,
          "eden " + mb(e1) + " not the rest of 100M beside survivors of " + mb(s1));
  });

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
