/*
 * How much of one DRAM budget H1 may commit.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPH1SIZEPOLICY_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPH1SIZEPOLICY_HPP

#include <stddef.h>

// Decides how much of one DRAM budget H1 may commit; the rest is left to the
// page cache that serves H2's mapping. The TeraCache paper's two signals pull
// the split: time lost to GC says H1 is too small, time lost waiting for I/O
// says the page cache is. The policy moves H1's target a step towards the
// larger loss, and holds when neither loss matters or they balance.
//
// Two bounds come before any signal. The ceiling keeps the JVM's anonymous
// memory (H1 plus everything else it allocates) a reserve below the budget,
// so that a memory cgroup reclaims page cache instead of killing the JVM; the
// floor keeps H1 above the data the last full GC found live, so that shrinking
// never turns into back-to-back full GCs. The ceiling wins when both cannot
// hold.
//
// While all of H2's data fits in part of the budget, the ceiling also leaves
// the page cache room for all of it, above the floor: a cache that holds H2
// whole reads each page once, and the GC time a larger H1 would save is then
// paid back in full GCs that wait for H2's pages (marking reads H2's objects
// and cards), which the I/O signal sees late and the GC signal counts against
// H1. (Triangle Count: its 354 MB in H2 under a 1280 MB cap ran fastest with
// H1 at half the cap; grown to its ceiling, H1 left H2 200 MB of page cache,
// its full GCs took 3x longer and read H2 500 times.) A larger H2 cannot be
// cached whole, and the signals decide alone.
//
// Time a GC pause spends waiting for I/O counts as I/O wait, not as GC time:
// a larger H1 would make that wait longer, not shorter. While H2 holds
// nothing, I/O wait shrinks nothing: the budget is divided for H2's pages,
// and the waits before it fills (the JVM reading its jars, the program its
// input) are short, while a shrink for them is undone by the next GC, and
// that undo holds off the shrinks H2's pages then need. A program that never
// fills H2 keeps H1 as GC time sizes it, up to -Xmx, as a stock JVM would.
//
// Past half the budget, H2's data gets no room up front, but the level of H1
// at which the page cache would hold it whole is a stop in both directions.
// A shrink stops there, and shrinks below it are held off for a while: below
// it, no I/O wait is H2's pages read again, once the pages evicted before are
// back. Once a shrink has stopped there, a grow goes past it only on more GC
// time than the I/O wait that shrink set out to save (at most half the
// interval: without PSI the estimate can pass all of it), and until one does
// (or a shrink goes below), H1 follows the level as the JVM's other memory and
// H2's data move it. Such a grow undoes no shrink: the next scan's shrink
// stops at the level again. A program that scans
// H2 in a loop reads all of it each time unless all of it fits, so the I/O
// wait does not fall step by step as H1 shrinks; it falls at that level, and
// comes back if H1 grows past it. (SVM: 822 MB in H2 under a 1280 MB cap, live
// data 30 MB; shrinks took H1 from 1017 MB past the level, 170 MB, to 54 MB,
// where GC took 66% of the time, and the grows that followed brought the
// reads back.)
//
// Only the I/O wait that comes with major faults counts: H2 is read back
// through faults on its mapping, and a wait without them (the writeback of a
// move, files read or written with system calls, another process on a
// machine-wide pressure file) is not H2's pages, which a smaller H1 would
// keep cached. Each fault counts for at most max_fault_seconds of the wait.
// (Triangle Count: shrinks on I/O wait with 0 to 3 faults cut eden while its
// working set built, and it ran full GCs back to back.)
//
// A shrink can also fail to pay: when H2's data is larger than any page cache
// the budget allows, or the I/O wait is not H2's though faults come with it
// (another process, the writeback of a move), a smaller H1 saves little I/O
// wait and costs GC time, and the next decision grows H1 back. Such a shrink
// is not repeated at once: for a while no shrink goes below the target it
// started from, twice as long after each shrink undone in a row.
//
// The class only computes: it reads no clock and no file, so that its
// decisions can be checked on made-up signals (tests/unit).
class TeraHeapH1SizePolicy {
public:
  // What one interval measured.
  struct Signals {
    double seconds;           // length of the interval
    double gc_seconds;        // of which spent in GC pauses
    double h2_seconds;        // of those, TeraHeap's own work in full GCs
                              // (moving groups, freeing regions), which a
                              // larger H1 would not save: not counted as loss
    double io_stall_seconds;  // of which some thread waited for I/O
    double major_faults;      // the process's major page faults in the interval
    double gc_io_seconds;     // of the GC time, spent waiting for I/O (in
                              // both gc_seconds and io_stall_seconds)
    size_t h1_live;           // H1 bytes live after the last full GC
    size_t other_memory;      // the JVM's anonymous memory outside H1
    size_t h2_data;           // bytes of H2 holding objects
  };

  enum Action {
    hold,    // no signal dominates
    grow,    // GC time dominates: a step up
    shrink,  // I/O wait dominates: a step down
    fit,     // the ceiling fell below the target
    raise    // the floor rose above the target
  };

  struct Decision {
    Action action;
    size_t from;
    size_t to;
    size_t floor;
    size_t ceiling;
    double gc_share;   // of the interval, TeraHeap's own work left out
    double io_share;   // of the interval, the I/O wait the faults account for
    bool undone;            // this grow undid a shrink that did not pay
    bool shrink_held;       // the I/O wait asked for a shrink the hold stopped (in part)
    size_t held_level;      // no shrink goes below this ...
    double held_seconds;    // ... for this much longer (0: shrinks are free)
    size_t whole_level;     // H1 at or below this leaves H2's data the page cache whole (0: none)
    bool at_whole;          // the target stays at whole_level: a shrink stopped there, a grow
                            // did not beat the I/O wait above it, or it follows the level
    double whole_hold_seconds;  // shrinks below whole_level held off this much longer
  };

  // A loss counts once it takes this share of the interval ...
  static const double significant_share;
  // ... and beats the other loss by this factor.
  static const double dominance;
  // A step is this fraction of the budget; a decision takes one to
  // max_steps of them, more as the dominant loss grows.
  static const double step_fraction;
  static const double max_steps;
  // The page cache's share of the budget that H1 never takes.
  static const double reserve_fraction;
  // H2's data up to this share of the budget is left room in the page cache,
  // with this share of the budget besides (the reserve, if that is larger).
  static const double h2_cache_fraction;
  static const double h2_slack_fraction;
  // H1 at least this multiple of its live data.
  static const double live_headroom;
  // H1's first target when the policy chose its maximum, as a fraction of
  // the budget: the share of memory the JVM gives its heap by default
  // (MaxRAMPercentage).
  static const double initial_fraction;
  // A grow this soon after a shrink, on more GC time than the I/O wait that
  // led to the shrink, undoes it; shrinks below where it started are then held off for
  // hold_off_seconds, doubled after each shrink undone in a row up to
  // max_hold_off_seconds.
  static const double undo_window_seconds;
  static const double hold_off_seconds;
  static const double max_hold_off_seconds;
  // One major fault accounts for at most this much I/O wait. With huge pages
  // a fault reads 4 MB, and threads that touch the part still being read
  // wait without a major fault of their own: shrinks while H2 is scanned
  // came with up to 52 ms of wait per fault.
  static const double max_fault_seconds;
  // A grow past the whole-H2 level never has to beat more GC time than this.
  static const double max_io_at_whole;

private:
  size_t _budget;
  size_t _h1_min;
  size_t _h1_max;
  size_t _alignment;
  size_t _target;
  // The last shrink, while it can still be undone.
  bool   _shrink_pending;
  double _since_shrink;
  double _io_at_shrink;
  size_t _from_at_shrink;
  // No shrink below _hold_level for _hold_left more seconds; the next hold's
  // length.
  size_t _hold_level;
  double _hold_left;
  double _next_hold;
  // The I/O wait that the last shrink onto the whole-H2 level set out to
  // save (0: no shrink stopped there yet): what a grow past it must beat.
  // While H1 stays there, it follows the level, and shrinks below it are
  // held off for _whole_hold_left more seconds.
  double _io_at_whole;
  bool   _at_whole;
  double _whole_hold_left;

  void note_time(double seconds);
  size_t held_shrink(size_t to) const;
  void note_decision(Decision* d);

  size_t align(size_t bytes) const;
  size_t step(double share) const;

public:
  TeraHeapH1SizePolicy() : _budget(0), _h1_min(0), _h1_max(0), _alignment(1), _target(0),
                           _shrink_pending(false), _since_shrink(0), _io_at_shrink(0),
                           _from_at_shrink(0), _hold_level(0), _hold_left(0),
                           _next_hold(hold_off_seconds), _io_at_whole(0),
                           _at_whole(false), _whole_hold_left(0) {}

  // budget: DRAM for H1 and H2's page cache together. H1 stays within
  // [h1_min, h1_max] (the -Xms and -Xmx of the generations); sizes are
  // multiples of alignment. The first target is h1_max when start_at_max
  // (h1_max is the heap the JVM would have had), else initial_fraction of
  // the budget; either within the memory-safe ceiling.
  void initialize(size_t budget, size_t h1_min, size_t h1_max,
                  size_t alignment, size_t other_memory, bool start_at_max = false);

  size_t budget() const { return _budget; }
  size_t target() const { return _target; }
  // The most H1 may take: the budget less the reserve, the JVM's other
  // memory and, when it fits, H2's data (h2_data 0: the memory-safe ceiling).
  size_t ceiling(size_t other_memory, size_t h2_data = 0) const;
  size_t floor(size_t h1_live) const;
  // What the collector holds H1 to between decisions: the target, or the
  // floor for h1_live if that is higher (within the memory-safe ceiling).
  // A full GC that finds more live data raises it at once: a target below
  // the floor until the next decision leaves the old generation no room to
  // promote into, and an eden cut then stays small (Parallel resizes eden
  // only when it is empty, which it is not after such a full GC).
  size_t limit(size_t h1_live, size_t other_memory) const;
  // The largest H1 that leaves the page cache room for all of H2's data, with
  // the slack besides; 0 if none does (or H2 holds nothing).
  size_t whole_h2_level(size_t other_memory, size_t h2_data) const;

  Decision decide(const Signals& signals);

  // The young generation's part of a target of `target` bytes: its usual
  // `share`, but no more than leaves the old generation live_headroom times
  // the live data, and no less than a quarter of that share. (The old
  // generation holds what lives; with only its usual share of a target near
  // the floor, it has no room to promote into, and the collector runs full
  // GCs back to back that each free only eden: Triangle Count, 352 MB live
  // in a 654 MB target, ran 5 s of them, in another run 13 s.) The old
  // generation never holds more than old_max, its reserved size, so the young
  // generation's part is at least the target less that: room the old one
  // cannot take stays eden's.
  static size_t young_part(size_t target, double share, size_t h1_live, size_t old_max,
                           size_t alignment);

  // The collector asks for eden and survivor sizes; fits them into `young`
  // bytes, in multiples of `alignment`. While most of what a minor GC copies
  // survives (a cache being built), the collector asks for survivors sized
  // for a young generation larger than `young`; they get at most half of it
  // and eden what it asked for up to the rest, so that minor GCs do not run
  // back to back over a sliver of eden. Neither grows past what was asked
  // for, with one exception: *eden_taken keeps the largest eden asked for
  // while eden was cut (0: none), and once `young` has room again eden gets
  // back up to it. The collector cannot do that itself: it grows eden from
  // its current size, in steps scaled by the share of GC time minor GCs
  // take, and a heap whose old generation is full runs only full GCs
  // (Triangle Count: an eden cut by a shrink stayed small after the grow
  // that undid it, through 1,900 full GCs).
  static void fit_young(size_t young, size_t alignment, size_t* eden, size_t* survivor,
                        size_t* eden_taken);
  // Before fit_young, with eden's size now: nothing is owed any more once
  // eden has grown back. Not before: the collector may not reach a size
  // asked for at once (eden not empty, a survivor in the way). Nor when it
  // asks for less than eden has: it does so while survivors grow, with the
  // old generation full, where a small eden means back-to-back full GCs.
  static void settle_eden_taken(size_t eden_now, size_t* eden_taken);

  static const char* action_name(Action action);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPH1SIZEPOLICY_HPP
