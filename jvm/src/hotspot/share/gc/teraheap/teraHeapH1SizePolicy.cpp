/*
 * How much of one DRAM budget H1 may commit.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "gc/teraheap/teraHeapH1SizePolicy.hpp"

// Kept free of HotSpot's headers on purpose: tests/unit compiles this file on
// its own to replay signal sequences.

const double TeraHeapH1SizePolicy::significant_share = 0.05;
const double TeraHeapH1SizePolicy::dominance         = 1.5;
const double TeraHeapH1SizePolicy::step_fraction     = 0.10;
const double TeraHeapH1SizePolicy::max_steps         = 3;
const double TeraHeapH1SizePolicy::reserve_fraction  = 0.10;
const double TeraHeapH1SizePolicy::h2_cache_fraction = 0.50;
const double TeraHeapH1SizePolicy::h2_slack_fraction = 0.05;
const double TeraHeapH1SizePolicy::live_headroom     = 1.5;
const double TeraHeapH1SizePolicy::initial_fraction  = 0.25;
const double TeraHeapH1SizePolicy::undo_window_seconds  = 5;
const double TeraHeapH1SizePolicy::hold_off_seconds     = 10;
const double TeraHeapH1SizePolicy::max_hold_off_seconds = 80;
const double TeraHeapH1SizePolicy::max_io_at_whole      = 0.5;
const double TeraHeapH1SizePolicy::max_fault_seconds    = 0.050;

void TeraHeapH1SizePolicy::initialize(size_t budget, size_t h1_min, size_t h1_max,
                                      size_t alignment, size_t other_memory, bool start_at_max) {
  _budget = budget;
  _h1_min = h1_min;
  _h1_max = h1_max;
  _alignment = alignment == 0 ? 1 : alignment;
  // Start where the JVM's heap would be without the policy. A maximum the
  // user gave (or the JVM's default heap) is where a stock JVM lets the
  // collector grow at once; held below it, a program that needs it loses
  // seconds of GC before the first decisions raise the target. A maximum
  // the policy chose from the budget is no one's heap: start small then.
  // The two wrong guesses do not cost the same: an H1 too small shows at
  // once as GC time, and the next decision grows it; an H1 too large shows
  // only once its pages have pushed H2's out of the page cache, and
  // shrinking it waits for GCs, which a large H1 makes rare.
  _target = start_at_max ? _h1_max : align((size_t)(_budget * initial_fraction));
  const size_t top = ceiling(other_memory);
  if (_target > top) {
    _target = top;
  }
  if (_target < _h1_min) {
    _target = _h1_min;
  }
}

size_t TeraHeapH1SizePolicy::align(size_t bytes) const {
  return bytes - bytes % _alignment;
}

size_t TeraHeapH1SizePolicy::ceiling(size_t other_memory, size_t h2_data) const {
  // H2's pages are page cache too, which the kernel can reclaim: they count
  // towards the reserve, with some slack for the other files the JVM reads.
  size_t reserve = (size_t)(_budget * reserve_fraction);
  if (h2_data <= _budget * h2_cache_fraction) {
    const size_t h2_room = h2_data + (size_t)(_budget * h2_slack_fraction);
    reserve = h2_room > reserve ? h2_room : reserve;
  }
  size_t room = _budget > reserve + other_memory ? _budget - reserve - other_memory : 0;
  room = align(room);
  if (room > _h1_max) {
    room = _h1_max;
  }
  if (room < _h1_min) {  // H1 cannot go below its minimum
    room = _h1_min;
  }
  return room;
}

size_t TeraHeapH1SizePolicy::whole_h2_level(size_t other_memory, size_t h2_data) const {
  const size_t taken = other_memory + h2_data + (size_t)(_budget * h2_slack_fraction);
  if (h2_data == 0 || taken >= _budget) {
    return 0;
  }
  const size_t level = align(_budget - taken);
  return level > _h1_max ? _h1_max : level;
}

size_t TeraHeapH1SizePolicy::limit(size_t h1_live, size_t other_memory) const {
  size_t low = floor(h1_live);
  const size_t safe = ceiling(other_memory);
  low = low < safe ? low : safe;
  return _target > low ? _target : low;
}

size_t TeraHeapH1SizePolicy::floor(size_t h1_live) const {
  const double wanted = h1_live * live_headroom;
  size_t bytes = wanted >= (double)_h1_max ? _h1_max : (size_t)wanted;
  bytes = align(bytes + _alignment - 1);
  if (bytes < _h1_min) {
    bytes = _h1_min;
  }
  if (bytes > _h1_max) {
    bytes = _h1_max;
  }
  return bytes;
}

// One step for a loss just past significance, up to max_steps for a loss
// that takes most of the time: a program spending 90% of its time in GC
// should not wait many intervals for the room it needs.
size_t TeraHeapH1SizePolicy::step(double share) const {
  double steps = share / (2 * significant_share);
  steps = steps < 1 ? 1 : (steps > max_steps ? max_steps : steps);
  return align((size_t)(_budget * step_fraction * steps));
}

void TeraHeapH1SizePolicy::note_time(double seconds) {
  _since_shrink += seconds;
  _whole_hold_left = _whole_hold_left > seconds ? _whole_hold_left - seconds : 0;
  _hold_left = _hold_left > seconds ? _hold_left - seconds : 0;
  if (_shrink_pending && _since_shrink > undo_window_seconds) {
    // The last shrink stood: the next one that fails starts a short hold again.
    _shrink_pending = false;
    _next_hold = hold_off_seconds;
  }
}

void TeraHeapH1SizePolicy::note_decision(Decision* d) {
  d->undone = false;
  if (d->action == grow && _shrink_pending && d->gc_share > _io_at_shrink) {
    // The shrink cost more GC time than the I/O wait it set out to save: it
    // did not pay. (Whether the I/O wait went away says little: time spent in
    // GC pauses is time no thread waits for I/O.)
    d->undone = true;
    _shrink_pending = false;
    _hold_level = _from_at_shrink;
    _hold_left = _next_hold;
    _next_hold = 2 * _next_hold > max_hold_off_seconds ? max_hold_off_seconds : 2 * _next_hold;
  } else if (d->action == shrink && d->at_whole) {
    // Neither it nor the shrinks before it are undone this way: a grow past
    // the whole-H2 level already has to beat the I/O wait the stop saved,
    // and the hold an undo sets would keep the next scan's shrink off it.
    _shrink_pending = false;
  } else if (d->action == shrink) {
    _shrink_pending = true;
    _since_shrink = 0;
    _io_at_shrink = d->io_share;
    _from_at_shrink = d->from;
  }
  d->held_level = _hold_left > 0 ? _hold_level : 0;
  d->held_seconds = _hold_left;
}

// While held off, a shrink stops at the level the undone one started from,
// or at the target if that is already lower. What is left above the level
// may be a sliver (the ceiling moves the target by a few MB at a time): a
// shrink of under 1% of the budget is none.
size_t TeraHeapH1SizePolicy::held_shrink(size_t to) const {
  if (_hold_left <= 0 || to >= _hold_level) {
    return to;
  }
  if (_target <= _hold_level || (_target - _hold_level) * 100 < _budget) {
    return _target;
  }
  return _hold_level;
}

TeraHeapH1SizePolicy::Decision TeraHeapH1SizePolicy::decide(const Signals& s) {
  note_time(s.seconds);
  Decision d;
  d.from = _target;
  // Memory safety first: a cgroup kill loses the whole job. Room for H2's
  // pages comes after the floor.
  const size_t safe = ceiling(s.other_memory);
  d.floor = floor(s.h1_live);
  d.floor = d.floor > safe ? safe : d.floor;
  d.ceiling = ceiling(s.other_memory, s.h2_data);
  d.ceiling = d.ceiling < d.floor ? d.floor : d.ceiling;
  // TeraHeap's moves and the I/O waits inside pauses overlap (a move may wait
  // for writeback): the larger of the two is left out.
  const double not_h1 = s.h2_seconds > s.gc_io_seconds ? s.h2_seconds : s.gc_io_seconds;
  const double h1_gc_seconds = s.gc_seconds > not_h1 ? s.gc_seconds - not_h1 : 0;
  d.gc_share = s.seconds > 0 ? h1_gc_seconds / s.seconds : 0;
  const double fault_io_seconds = s.major_faults * max_fault_seconds;
  const double io_seconds = s.io_stall_seconds < fault_io_seconds ? s.io_stall_seconds : fault_io_seconds;
  d.io_share = s.seconds > 0 ? io_seconds / s.seconds : 0;

  // Only a level above the floor is one H1 can stop at.
  d.whole_level = whole_h2_level(s.other_memory, s.h2_data);
  d.whole_level = d.whole_level >= d.floor ? d.whole_level : 0;
  if (d.whole_level == 0) {
    _at_whole = false;
    _io_at_whole = 0;
  }

  size_t to = _target;
  d.action = hold;
  d.shrink_held = false;
  bool to_level = false;   // the signals leave H1 at the level
  bool enters = false;     // a shrink stops there
  if (d.gc_share >= significant_share && d.gc_share >= d.io_share * dominance) {
    d.action = grow;
    to = _target + step(d.gc_share);
    // Past the level only on more GC time than the I/O wait that brings back.
    to_level = d.whole_level > 0 && (_at_whole || _target <= d.whole_level) && to > d.whole_level &&
               d.gc_share < _io_at_whole;
  } else if (s.h2_data > 0 && d.io_share >= significant_share && d.io_share >= d.gc_share * dominance) {
    // With H2 empty, the wait is not for H2's pages (see the class comment).
    d.action = shrink;
    const size_t down = step(d.io_share);
    const size_t wanted = _target > down ? _target - down : 0;
    if (_at_whole && _whole_hold_left > 0) {
      to_level = true;   // H2's evicted pages are still being read back
      d.shrink_held = true;
    } else if (!_at_whole && d.whole_level > 0 && _target > d.whole_level && wanted <= d.whole_level) {
      to_level = enters = true;
    } else {
      to = held_shrink(wanted);
      d.shrink_held = to != wanted;
    }
  } else {
    // The level moves with the JVM's other memory and H2's data: H1 follows it.
    to_level = _at_whole;
  }
  if (to_level) {
    to = d.whole_level < _target ? held_shrink(d.whole_level) : d.whole_level;
    if (enters) {  // an undone shrink's hold
      d.shrink_held = to != d.whole_level;
    }
  }

  to = to > d.ceiling ? d.ceiling : to;
  to = to < d.floor ? d.floor : to;
  // A shrink held at the level only follows it, as the bounds do.
  if (d.action == shrink && to_level && !enters) {
    d.action = hold;
  }
  // A bound that moved past the target overrides the signals.
  if (to > _target && d.action != grow) {
    d.action = raise;
  }
  if (to < _target && d.action != shrink) {
    d.action = fit;
  }
  if (to == _target) {
    d.action = hold;
  }
  _at_whole = to_level && to == d.whole_level;
  if (enters && _at_whole) {
    // The wait may not end at once: the collector hands H1's pages back at
    // its next GC, and H2's evicted pages are read once more. Without PSI
    // the I/O estimate can pass the whole interval; a stop that asked more
    // GC time than this of a grow would hold H1 there for good.
    _io_at_whole = d.io_share < max_io_at_whole ? d.io_share : max_io_at_whole;
    _whole_hold_left = hold_off_seconds;
  }
  d.at_whole = _at_whole;
  d.whole_hold_seconds = _at_whole ? _whole_hold_left : 0;
  d.to = _target = to;
  note_decision(&d);
  return d;
}

size_t TeraHeapH1SizePolicy::young_part(size_t target, double share, size_t h1_live, size_t old_max,
                                        size_t alignment) {
  if (alignment == 0) {
    alignment = 1;
  }
  const size_t usual = (size_t)(target * share);
  double old_need = h1_live * live_headroom;
  old_need = old_need < (double)old_max ? old_need : (double)old_max;
  size_t part = old_need < (double)target ? target - (size_t)old_need : 0;
  part = part < usual ? part : usual;
  part = part > usual / 4 ? part : usual / 4;
  return part - part % alignment;
}

// Raises *eden towards what an earlier cut took, within `room`.
static void give_back_eden(size_t room, size_t eden_taken, size_t* eden) {
  const size_t back = room < eden_taken ? room : eden_taken;
  if (back > *eden) {
    *eden = back;
  }
}

void TeraHeapH1SizePolicy::fit_young(size_t young, size_t alignment, size_t* eden, size_t* survivor,
                                     size_t* eden_taken) {
  if (alignment == 0) {
    alignment = 1;
  }
  if (*eden + 2 * *survivor <= young) {
    size_t room = young - 2 * *survivor;
    give_back_eden(room - room % alignment, *eden_taken, eden);
    return;
  }
  // Survivors take at most half, eden up to the rest. Eden must not be what
  // gives way: the collector grows eden in steps of its current size, so an
  // eden squeezed once stays small for dozens of minor GCs, each copying the
  // same survivors again. What the survivors cannot hold is promoted.
  size_t s = *survivor < young / 4 ? *survivor : young / 4;
  s -= s % alignment;
  if (s < alignment) {
    s = alignment;
  }
  size_t e = young > 2 * s ? young - 2 * s : 0;
  e -= e % alignment;
  if (e < alignment) {
    e = alignment;
  }
  *survivor = s;
  if (*eden > e) {
    *eden_taken = *eden > *eden_taken ? *eden : *eden_taken;
    *eden = e;
  } else {
    give_back_eden(e, *eden_taken, eden);
  }
}

void TeraHeapH1SizePolicy::settle_eden_taken(size_t eden_now, size_t* eden_taken) {
  if (eden_now >= *eden_taken) {
    *eden_taken = 0;
  }
}

const char* TeraHeapH1SizePolicy::action_name(Action action) {
  switch (action) {
    case grow:   return "grow";
    case shrink: return "shrink";
    case fit:    return "fit";
    case raise:  return "raise";
    default:     return "hold";
  }
}
