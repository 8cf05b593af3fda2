/* Stores through JNI into objects the test has moved to H2. */
#include <jni.h>

JNIEXPORT void JNICALL
Java_TestTeraHeapJni_00024Child_setField(JNIEnv* env, jclass cls, jobject holder, jobject value) {
  jclass holder_class = (*env)->GetObjectClass(env, holder);
  jfieldID field = (*env)->GetFieldID(env, holder_class, "value", "Ljava/lang/Object;");
  (*env)->SetObjectField(env, holder, field, value);
}

JNIEXPORT void JNICALL
Java_TestTeraHeapJni_00024Child_setElement(JNIEnv* env, jclass cls, jobjectArray array, jint index, jobject value) {
  (*env)->SetObjectArrayElement(env, array, index, value);
}

/*
 * GetPrimitiveArrayCritical held by one thread while another asks for full GCs: the array must
 * not move (nor its group go to H2) until it is released; every value written through the
 * critical pointer must be there afterwards.
 */
#include <unistd.h>

static volatile int critical_entered = 0;
static volatile int critical_release = 0;
static volatile int critical_done = 0;

/*
 * Holds the array critical until told to let go, or for two seconds at most: a thread that must
 * allocate while the GC locker is held waits for it, so the holder must not wait for Java code.
 */
JNIEXPORT void JNICALL
Java_TestTeraHeapJni_00024Critical_hold(JNIEnv* env, jclass cls, jintArray array) {
  jsize n = (*env)->GetArrayLength(env, array);
  jint* p = (jint*)(*env)->GetPrimitiveArrayCritical(env, array, NULL);
  if (p == NULL) {
    return;
  }
  critical_entered = 1;
  long round = 0;
  while (!critical_release && round < 2000) {
    for (jsize i = 0; i < n; i++) {
      p[i] = (jint)(round * 31 + i);   /* lost if the array moved under the pointer */
    }
    round++;
    usleep(1000);
  }
  for (jsize i = 0; i < n; i++) {
    p[i] = i * 7;
  }
  critical_done = 1;
  (*env)->ReleasePrimitiveArrayCritical(env, array, p, 0);
}

JNIEXPORT jboolean JNICALL
Java_TestTeraHeapJni_00024Critical_held(JNIEnv* env, jclass cls) {
  return (critical_entered && !critical_done) ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL
Java_TestTeraHeapJni_00024Critical_release(JNIEnv* env, jclass cls) {
  critical_release = 1;
}
