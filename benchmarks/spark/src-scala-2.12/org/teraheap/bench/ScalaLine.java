package org.teraheap.bench;

import java.util.List;

import scala.Predef;
import scala.collection.JavaConverters;

/**
 * What Java code must spell differently for each Scala line: this copy is Scala 2.12's (Spark
 * 3.5); src-scala-2.13 holds Scala 2.13's (Spark 3.5 for 2.13 and Spark 4).
 */
final class ScalaLine {
    private ScalaLine() {
    }

    /** The evidence that a type equals itself, which a Scala caller's implicit would pass. */
    static <T> Predef.$eq$colon$eq<T, T> sameType() {
        return Predef.$eq$colon$eq$.MODULE$.tpEquals();
    }

    /** A Scala sequence of the list's elements, as Spark's Scala methods take. */
    static <T> scala.collection.Seq<T> seq(List<T> list) {
        return JavaConverters.asScalaBufferConverter(list).asScala().toList();
    }
}
