package org.teraheap.bench;

import java.util.List;

import scala.jdk.javaapi.CollectionConverters;

/**
 * What Java code must spell differently for each Scala line: this copy is Scala 2.13's (Spark
 * 3.5 for 2.13 and Spark 4); src-scala-2.12 holds Scala 2.12's (Spark 3.5).
 */
final class ScalaLine {
    private ScalaLine() {
    }

    /** The evidence that a type equals itself, which a Scala caller's implicit would pass. */
    static <T> scala.$eq$colon$eq<T, T> sameType() {
        return scala.$less$colon$less$.MODULE$.refl();
    }

    /** A Scala sequence of the list's elements, as Spark's Scala methods take. */
    static <T> scala.collection.immutable.Seq<T> seq(List<T> list) {
        return CollectionConverters.asScala(list).toList();
    }
}
