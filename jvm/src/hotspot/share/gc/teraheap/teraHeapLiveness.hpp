/*
 * Which regions a full GC keeps, found while it marks.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_HPP

#include "memory/allStatic.hpp"
#include "oops/oopsHierarchy.hpp"

class ParCompactionManager;
class TeraHeapRegions;

// Which H2 regions a full GC keeps, found as part of its marking rather than
// after it. A reference that marking follows into H2 makes the target's region
// live (never its objects). A region made live is then read, once, by the
// thread that next drains its marking stack: its same-label dependencies
// become live, the classes of its objects are kept loaded, its cards' H1
// referents are marked and pushed, and the other regions they refer to become
// live. Draining the stack and reading queued regions alternate until both
// are empty. Regions reached during the marking from roots are queued only,
// and read once it is done, by all GC workers: so which tagged roots in H2
// the marking from roots reaches tells which are held from outside H2
// (TeraHeapH2Roots), and then:
//  - the work runs on the GC workers before reference processing, where
//    Reference discovery belongs (a Reference in H1 reached from an H2 card is
//    discovered like any other), and is balanced by their work stealing;
//  - a region revived while References are processed (by a finalizer's
//    keep-alive, or a soft reference the policy keeps) has its H1 referents
//    marked in that same phase, before weaker References are looked at.
// A traced region (TeraHeapTrace) has its dependencies and classes kept
// but its cards not read: the trace follows the fields of its reached objects,
// and its cards would also make the fields of its dead objects roots.
class TeraHeapLiveness : AllStatic {
  // False during the marking from roots: regions it reaches wait in the queue.
  static volatile bool _reading;

public:
  // Before marking: every region is dead until marking reaches it, and the
  // regions it reaches are queued until read_reached_regions.
  static void prepare(TeraHeapRegions* regions);
  // After the marking from roots, before reference processing: the GC
  // workers read the regions it reached, and those they lead to.
  static void read_reached_regions(TeraHeapRegions* regions);
  // Marking reached `obj` in H2 (from H1, a root, or a card of a live region).
  static void mark_reached(TeraHeapRegions* regions, oop obj);
  // Reads one queued live region into `cm`'s marking stacks; false if none was
  // queued, or the marking from roots is still running.
  static bool mark_from_live_region(TeraHeapRegions* regions, ParCompactionManager* cm);
  // After read_reached_regions: marking skipped the summarized cards of
  // regions whose summary (TeraHeapBackwardTargets) named only objects it
  // would mark anyway; the GC workers read those of regions whose summary
  // names an object that marking did not reach after all.
  static void read_unconfirmed_summaries(TeraHeapRegions* regions);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPLIVENESS_HPP
