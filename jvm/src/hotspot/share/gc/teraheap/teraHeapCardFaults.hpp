/*
 * The card table's pages noted as the kernel maps them in.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#ifndef SHARE_GC_TERAHEAP_TERAHEAPCARDFAULTS_HPP
#define SHARE_GC_TERAHEAP_TERAHEAPCARDFAULTS_HPP

#include "memory/allStatic.hpp"

class TeraHeapCardFaultThread;
class ThreadClosure;

// Tells which pages of H2's card table the kernel maps in, as it maps them:
// the table is registered with userfaultfd, and a thread of ours maps each
// page in on its first touch after noting it. Collections then know the
// pages that may hold dirty cards without asking the kernel about every page
// of every region in use (a read of /proc/self/pagemap that grows with H2).
// A page the collector gives back (MADV_DONTNEED) is reported again at its
// next touch.
//
// If the kernel refuses (no userfaultfd, a seccomp filter, an old kernel), or
// stops serving the thread, start() returns false or serving() becomes false,
// the table is unregistered so that the kernel serves its faults itself, and
// the caller falls back to reading the page map.
class TeraHeapCardFaults : AllStatic {
  static TeraHeapCardFaultThread* _thread;   // NULL: not serving

public:
  typedef void (*Noted)(char* page);
  // [from, to): whole pages, untouched since they were mapped.
  static bool start(char* from, char* to, Noted noted);
  // Every page mapped in since start() has been noted.
  static bool serving();
  static void threads_do(ThreadClosure* tc);
};

#endif // SHARE_GC_TERAHEAP_TERAHEAPCARDFAULTS_HPP
