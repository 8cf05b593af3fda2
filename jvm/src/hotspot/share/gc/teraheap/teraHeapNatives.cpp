/*
 * The natives of the Java API, org.teraheap.TeraHeap.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "classfile/javaClasses.hpp"
#include "classfile/vmSymbols.hpp"
#include "gc/teraheap/teraHeap.hpp"
#include "gc/teraheap/teraHeapAddressSpace.hpp"
#include "gc/teraheap/teraHeapNatives.hpp"
#include "gc/teraheap/teraHeapRoots.hpp"
#include "jni.h"
#include "oops/typeArrayOop.inline.hpp"
#include "runtime/handles.inline.hpp"
#include "runtime/interfaceSupport.inline.hpp"
#include "runtime/jniHandles.inline.hpp"
#include "utilities/exceptions.hpp"

// The order of the values stats0 writes, shared with H2Stats.java.
enum TeraHeapStatsSlot {
  capacity_slot, used_slot, regions_in_use_slot, regions_freed_slot,
  bytes_moved_slot, objects_moved_slot, tagged_roots_slot, movable_labels_slot,
  stats_slot_count
};

JVM_ENTRY(static void, TeraHeap_tagRoot(JNIEnv* env, jclass cls, jobject root, jlong label))
  oop obj = JNIHandles::resolve(root);
  if (obj == NULL) {
    THROW_MSG(vmSymbols::java_lang_NullPointerException(), "root is null");
  }
  TeraHeapRoots::add(Handle(THREAD, obj), label);
JVM_END

JVM_ENTRY(static void, TeraHeap_move(JNIEnv* env, jclass cls, jlong label))
  TeraHeapRoots::advise_move(label);
JVM_END

JVM_ENTRY(static jboolean, TeraHeap_isInH2(JNIEnv* env, jclass cls, jobject obj))
  oop o = JNIHandles::resolve(obj);
  return o != NULL && TeraHeapAddressSpace::contains(o);
JVM_END

JVM_ENTRY(static void, TeraHeap_stats(JNIEnv* env, jclass cls, jlongArray out))
  typeArrayOop array = typeArrayOop(JNIHandles::resolve(out));
  if (array == NULL || array->length() < stats_slot_count) {
    THROW_MSG(vmSymbols::java_lang_IllegalArgumentException(), "stats array too short");
  }
  const TeraHeapStats s = TeraHeap::stats();
  array->long_at_put(capacity_slot, (jlong)s.capacity_bytes);
  array->long_at_put(used_slot, (jlong)s.used_bytes);
  array->long_at_put(regions_in_use_slot, (jlong)s.regions_in_use);
  array->long_at_put(regions_freed_slot, (jlong)s.regions_freed);
  array->long_at_put(bytes_moved_slot, (jlong)s.bytes_moved);
  array->long_at_put(objects_moved_slot, (jlong)s.objects_moved);
  array->long_at_put(tagged_roots_slot, (jlong)s.tagged_roots);
  array->long_at_put(movable_labels_slot, (jlong)s.movable_labels);
JVM_END

#define CC (char*)

static JNINativeMethod teraheap_methods[] = {
  { CC"tagRoot0", CC"(Ljava/lang/Object;J)V", (void*)&TeraHeap_tagRoot },
  { CC"move0",    CC"(J)V",                   (void*)&TeraHeap_move    },
  { CC"isInH2_0", CC"(Ljava/lang/Object;)Z",  (void*)&TeraHeap_isInH2  },
  { CC"stats0",   CC"([J)V",                  (void*)&TeraHeap_stats   },
};

#undef CC

JVM_ENTRY(static void, TeraHeap_registerNatives(JNIEnv* env, jclass cls))
  ThreadToNativeFromVM ttnfv(thread);
  env->RegisterNatives(cls, teraheap_methods, (jint)(sizeof(teraheap_methods) / sizeof(teraheap_methods[0])));
JVM_END

address TeraHeapNatives::lookup(const char* jni_name) {
  if (strcmp(jni_name, "Java_org_teraheap_TeraHeap_registerNatives") == 0) {
    return CAST_FROM_FN_PTR(address, TeraHeap_registerNatives);
  }
  return NULL;
}
