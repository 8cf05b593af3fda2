# TeraHeap for OpenJDK 17.
#   make            build the TeraHeap JDK (build/jdk), the Java API jar (build/teraheap-api.jar), the
#                   Spark agent (build/teraheap-spark.jar), the Spark workloads (build/teraheap-bench-spark.jar)
#                   and a Spark home with spark-submit (build/spark-home),
#                   the Giraph agent (build/teraheap-giraph.jar) and the Giraph workloads (build/teraheap-bench-giraph.jar),
#                   and the hybrid DRAM/NVM RDD cache's agent (build/hybrid-spark.jar, docs/hybrid.md)
#   make demo       build, then run a small demonstration on the built-in defaults
#   make test       build, then run every test; ends with "N passed, N failed"
#   make fastdebug  build a fastdebug JDK (build/jdk-fastdebug) for development
#   make export     turn edits made inside the OpenJDK build tree back into jvm/
#
# Spark: the workloads are built against Spark 3.5 (benchmarks/spark/pom.xml, Scala 2.12) into
# build/, and against SPARK4_VERSION into build/spark-SPARK4_VERSION/; the tests run the agent on
# both, and on SPARK_UNKNOWN_VERSION, which it must refuse. Other releases:
# benchmarks/spark/build-release.sh, tests/spark/matrix.sh.
#
# Large things (Debian's source and binaries, HotSpot build trees) live in $(TERAHEAP_WORK),
# ~/.cache/teraheap by default. OPENJDK_DEB_VERSION picks the Debian openjdk-17 version.

SHELL := /bin/bash
export TERAHEAP_WORK ?= $(HOME)/.cache/teraheap
export OPENJDK_DEB_VERSION ?= 17.0.19+10-1~deb12u2

# The newest Spark 4.x whose modules Maven Central serves together, and the release the agent
# must refuse (older than the lines it knows).
SPARK4_VERSION := 4.2.0
SPARK_UNKNOWN_VERSION := 3.4.4

SCRIPTS   := jvm/scripts
BUILD     := build
VERSIONED := $(TERAHEAP_WORK)/%s-$(OPENJDK_DEB_VERSION)
STOCK_JDK := $(TERAHEAP_WORK)/stock-jdk-$(OPENJDK_DEB_VERSION)
JVM_INPUTS := $(shell find jvm -type f 2>/dev/null)
API_SOURCES := $(shell find api/src -name '*.java' 2>/dev/null)
SPARK_AGENT_INPUTS := spark/pom.xml $(shell find spark/src spark/common -name '*.java' 2>/dev/null) $(API_SOURCES)
HYBRID_AGENT_INPUTS := hybrid/pom.xml $(shell find hybrid/src spark/common -name '*.java' 2>/dev/null)
SPARK_BENCH_INPUTS := benchmarks/spark/pom.xml $(shell find benchmarks/spark/src benchmarks/spark/src-scala-* -name '*.java' 2>/dev/null)
GIRAPH_AGENT_INPUTS := giraph/pom.xml $(shell find giraph/src -name '*.java' 2>/dev/null) $(API_SOURCES)
GIRAPH_BENCH_INPUTS := benchmarks/giraph/pom.xml $(shell find benchmarks/giraph/src -type f 2>/dev/null)
# Maven, with Spark and Byte Buddy from Maven Central, run by Debian's JDK.
MVN := JAVA_HOME=$(STOCK_JDK) mvn -B -q -Dstyle.color=never

.PHONY: all demo test fastdebug export clean
all: $(BUILD)/jdk/.built $(BUILD)/teraheap-api.jar $(BUILD)/teraheap-spark.jar \
     $(BUILD)/teraheap-bench-spark.jar $(BUILD)/spark-home/bin/spark-submit \
     $(BUILD)/spark-$(SPARK4_VERSION)/teraheap-bench-spark.jar \
     $(BUILD)/spark-$(SPARK_UNKNOWN_VERSION)/spark-classpath.txt \
     $(BUILD)/teraheap-giraph.jar $(BUILD)/teraheap-bench-giraph.jar $(BUILD)/hybrid-spark.jar

# Debian's JDK, unpacked and made self-contained: the boot JDK and the stock JVM tests compare with.
$(BUILD)/.stock: $(SCRIPTS)/deps.sh $(SCRIPTS)/fetch.sh $(SCRIPTS)/image.sh $(SCRIPTS)/common.sh
	@$(SCRIPTS)/deps.sh
	@$(SCRIPTS)/fetch.sh
	@test -x $(STOCK_JDK)/bin/java || $(SCRIPTS)/image.sh $(STOCK_JDK)
	@mkdir -p $(BUILD) && ln -sfn $(STOCK_JDK) $(BUILD)/stock-jdk && touch $@

define jdk_rule
$(BUILD)/$(1)/.built: $(BUILD)/.stock $(JVM_INPUTS)
	@mkdir -p $(BUILD) && touch $(BUILD)/.$(1)-started
	@$(SCRIPTS)/prepare-tree.sh
	@$(SCRIPTS)/build-hotspot.sh $(2)
	@$(SCRIPTS)/image.sh $(CURDIR)/$(BUILD)/$(1) \
	   $(TERAHEAP_WORK)/src-$(OPENJDK_DEB_VERSION)/build/$(2)/support/modules_libs/java.base/server/libjvm.so \
	   $(TERAHEAP_WORK)/src-$(OPENJDK_DEB_VERSION)/build/$(2)
	@# Stamped with the start time: edits made while it built make the next make rebuild.
	@touch -r $(BUILD)/.$(1)-started $$@
	@echo "[teraheap] $(2) JDK ready: $(BUILD)/$(1)"
endef
$(eval $(call jdk_rule,jdk,release))
$(eval $(call jdk_rule,jdk-fastdebug,fastdebug))

fastdebug: $(BUILD)/jdk-fastdebug/.built $(BUILD)/teraheap-api.jar

$(BUILD)/teraheap-api.jar: $(BUILD)/.stock $(API_SOURCES)
	@rm -rf $(BUILD)/api-classes && mkdir -p $(BUILD)/api-classes
	@# --release 8: the same jar loads on any JVM a framework may run on, stock ones included.
	@$(STOCK_JDK)/bin/javac -Xlint:-options --release 8 -d $(BUILD)/api-classes $(API_SOURCES)
	@$(STOCK_JDK)/bin/jar --create --file $@ -C $(BUILD)/api-classes .
	@echo "[teraheap] Java API ready: $@"

$(BUILD)/teraheap-spark.jar: $(BUILD)/.stock $(SPARK_AGENT_INPUTS)
	@cd spark && $(MVN) package
	@cp $(BUILD)/maven/teraheap-spark/teraheap-spark-0.1.jar $@
	@echo "[teraheap] Spark agent ready: $@"

# The hybrid DRAM/NVM RDD cache's agent (docs/hybrid.md).
$(BUILD)/hybrid-spark.jar: $(BUILD)/.stock $(HYBRID_AGENT_INPUTS)
	@cd hybrid && $(MVN) package
	@cp $(BUILD)/maven/hybrid-spark/hybrid-spark-0.1.jar $@
	@echo "[teraheap] hybrid cache agent ready: $@"

# The workloads, and the class path of Spark they run with (build/spark-classpath.txt).
$(BUILD)/teraheap-bench-spark.jar: $(BUILD)/.stock $(SPARK_BENCH_INPUTS)
	@cd benchmarks/spark && $(MVN) package dependency:build-classpath \
	   -Dmdep.outputFile=$(CURDIR)/$(BUILD)/spark-classpath.txt
	@cp $(BUILD)/maven/teraheap-bench-spark/teraheap-bench-spark-0.1.jar $@
	@echo "[teraheap] Spark workloads ready: $@"

# A Spark home with Spark's launcher, run by build/jdk with the agent (build/spark-home/bin/spark-submit).
$(BUILD)/spark-home/bin/spark-submit: $(BUILD)/teraheap-bench-spark.jar spark/home.sh spark/spark-submit
	@spark/home.sh

$(BUILD)/spark-$(SPARK4_VERSION)/teraheap-bench-spark.jar: $(BUILD)/.stock $(SPARK_BENCH_INPUTS) \
    benchmarks/spark/build-release.sh spark/home.sh spark/spark-submit
	@benchmarks/spark/build-release.sh $(SPARK4_VERSION)

$(BUILD)/spark-$(SPARK_UNKNOWN_VERSION)/spark-classpath.txt: $(BUILD)/.stock tests/spark/pom.xml \
    benchmarks/spark/build-release.sh spark/home.sh spark/spark-submit
	@benchmarks/spark/build-release.sh $(SPARK_UNKNOWN_VERSION) checks

$(BUILD)/teraheap-giraph.jar: $(BUILD)/.stock $(GIRAPH_AGENT_INPUTS)
	@cd giraph && $(MVN) package
	@cp $(BUILD)/maven/teraheap-giraph/teraheap-giraph-0.1.jar $@
	@echo "[teraheap] Giraph agent ready: $@"

# The Graphalytics workloads on Giraph, and the class path of Giraph and Hadoop they run with.
$(BUILD)/teraheap-bench-giraph.jar: $(BUILD)/.stock $(GIRAPH_BENCH_INPUTS)
	@cd benchmarks/giraph && $(MVN) package dependency:build-classpath \
	   -Dmdep.outputFile=$(CURDIR)/$(BUILD)/giraph-classpath.txt
	@cp $(BUILD)/maven/teraheap-bench-giraph/teraheap-bench-giraph-0.1.jar $@
	@echo "[teraheap] Giraph workloads ready: $@"

demo: all
	@demo/run.sh

test: all
	@tests/run.sh

export:
	@$(SCRIPTS)/export-tree.sh

clean:
	rm -rf $(BUILD)
