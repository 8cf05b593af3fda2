/*
 * After a full GC's moves on the Parallel collector: live H1 objects' references redirected to H2 copies.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPREDIRECT_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPREDIRECT_HPP

#include "memory/allStatic.hpp"

// The Parallel collector's full GC computes new addresses from the mark
// bitmap and compacts over the old copies of moved objects, forwarding
// pointers included, and its adjust phase skips objects it does not compact.
// So once groups have moved, every reference that a live H1 object holds to
// a moved object is pointed at its H2 copy, before the summary phase. Roots
// and H2's own references are adjusted later (TeraHeapForwarding,
// TeraHeapParallel::adjust_pointer).
class TeraHeapRedirect : AllStatic {
public:
  // On all GC workers, over H1's spaces cut into stripes.
  static void redirect_h1_references();
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPREDIRECT_HPP
