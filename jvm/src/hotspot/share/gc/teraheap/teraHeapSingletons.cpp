/*
 * Objects the whole program shares, which no group takes.
 *
 * Part of TeraHeap for OpenJDK 17. GPL v2 only, as the rest of HotSpot.
 */

#include "precompiled.hpp"
#include "classfile/classLoaderData.inline.hpp"
#include "classfile/classLoaderDataGraph.hpp"
#include "gc/teraheap/teraHeapSingletons.hpp"
#include "memory/iterator.inline.hpp"
#include "oops/access.inline.hpp"
#include "oops/fieldStreams.inline.hpp"
#include "oops/instanceKlass.hpp"
#include "oops/objArrayOop.inline.hpp"
#include "oops/oop.inline.hpp"
#include "oops/symbol.hpp"
#include "runtime/handles.inline.hpp"
#include "runtime/signature.hpp"

// Longer arrays in JDK statics are tables, not caches of constants.
static const int max_cache_length = 64 * 1024;

// Adds what an object's fields refer to.
class TeraHeapAddReferentsClosure : public BasicOopIterateClosure {
  TeraHeapSingletons* _singletons;

  template <class T> void do_oop_work(T* p) {
    oop o = RawAccess<>::oop_load(p);
    if (o != NULL) {
      _singletons->add(o);
    }
  }

public:
  TeraHeapAddReferentsClosure(TeraHeapSingletons* singletons) : _singletons(singletons) {}
  virtual void do_oop(oop* p) { do_oop_work(p); }
  virtual void do_oop(narrowOop* p) { do_oop_work(p); }
};

// An enum constant, or a Scala object (the instance its class holds in
// MODULE$): its fields are constants of the whole program too (a JDK enum's
// name String, the manifests Scala's collections share).
static bool holds_program_constants(const JavaFieldStream& fs) {
  return (fs.access_flags().as_int() & JVM_ACC_ENUM) != 0 || fs.name()->equals("MODULE$");
}

class TeraHeapStaticsClosure : public KlassClosure {
  TeraHeapSingletons* _singletons;
public:
  TeraHeapStaticsClosure(TeraHeapSingletons* singletons) : _singletons(singletons) {}
  void do_klass(Klass* k) {
    if (!k->is_instance_klass()) {
      return;
    }
    InstanceKlass* ik = InstanceKlass::cast(k);
    oop mirror = ik->java_mirror_no_keepalive();
    if (mirror == NULL) {
      return;
    }
    const bool jdk_class = ik->class_loader_data()->is_boot_class_loader_data() ||
                           ik->class_loader_data()->is_platform_class_loader_data();
    for (JavaFieldStream fs(ik); !fs.done(); fs.next()) {
      if (!fs.access_flags().is_static() || !is_reference_type(Signature::basic_type(fs.signature()))) {
        continue;
      }
      oop value = mirror->obj_field_access<AS_NO_KEEPALIVE>(fs.offset());
      if (value == NULL) {
        continue;
      }
      _singletons->add(value);
      if (holds_program_constants(fs)) {
        TeraHeapAddReferentsClosure referents(_singletons);
        value->oop_iterate(&referents);
      }
      if (jdk_class && fs.access_flags().is_final() && value->is_objArray()) {
        objArrayOop array = objArrayOop(value);
        for (int i = 0; i < array->length() && array->length() <= max_cache_length; i++) {
          oop element = array->obj_at(i);
          if (element != NULL) {
            _singletons->add(element);
          }
        }
      }
    }
  }
};

TeraHeapSingletons::TeraHeapSingletons() : _set() {
  TeraHeapStaticsClosure cl(this);
  ClassLoaderDataGraph::classes_do(&cl);
}

void TeraHeapSingletons::add(oop obj) {
  _set.put(cast_from_oop<HeapWord*>(obj), true);
}

bool TeraHeapSingletons::contains(oop obj) const {
  return _set.contains(cast_from_oop<HeapWord*>(obj));
}
