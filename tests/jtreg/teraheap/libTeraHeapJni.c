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
