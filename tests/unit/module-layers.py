#!/usr/bin/env python3
"""The JVM module's shape, checked from its sources: the rules of docs/design.md, "Module map".

- No two of the module's files include each other, directly or through others (a file and its
  .inline.hpp and _linux.cpp count as one).
- Only the API's natives and a collector's facade include the facade (teraHeap.hpp), and no file
  of the module includes a collector's facade (teraHeapParallel, teraHeapG1); the hooks in
  HotSpot's own files include them, but they are not the module.
- Only a collector's files include that collector's headers (gc/parallel, gc/g1): its facade and
  the files that serve it alone (the rest ask TeraHeapCollector, or take the collector's marker or
  adjuster as a template parameter: docs/design.md).
- share/gc/teraheap includes no system header but the C library's: the rest is in os/linux.
- No state in file-level variables: a static variable named like a member (_name) belongs in a
  class.

Prints PASS or FAIL per rule, then "N passed, N failed". Usage: tests/unit/module-layers.py [ROOT]
"""
import argparse
import re
import sys
from pathlib import Path

C_LIBRARY = {"errno.h", "stdarg.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h"}
# Each facade, and the module's files that may include it.
FACADE_CALLERS = {"teraHeap": {"teraHeapNatives", "teraHeapParallel", "teraHeapG1"}, "teraHeapParallel": set(),
                  "teraHeapG1": set()}
# Files that serve one collector alone, by the HotSpot directory of its headers.
COLLECTOR_FILES = {
    "parallel": {"teraHeapParallel", "teraHeapCardScavenge", "teraHeapParallelH1Sizing",
                 "teraHeapRedirect"},
    "g1": {"teraHeapG1", "teraHeapG1CardScan", "teraHeapG1H1Sizing", "teraHeapG1RootRegions", "teraHeapG1Targets",
           "teraHeapG1MarkingScan"},
}


def component(path):
    """teraHeapFile_linux.cpp, teraHeapFile.hpp and teraHeapFile.inline.hpp are one: teraHeapFile."""
    return path.name.split(".")[0].removesuffix("_linux")


def module_files(root):
    dirs = [root / "jvm/src/hotspot/share/gc/teraheap", root / "jvm/src/hotspot/os/linux/gc/teraheap"]
    return [f for d in dirs for f in sorted(d.glob("*.[ch]pp"))]


def includes(path):
    return re.findall(r'^#include "gc/teraheap/([^"]+)"', path.read_text(), re.M)


def cycles(graph):
    """The strongly connected components with more than one member."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=Path(__file__).resolve().parents[2], type=Path,
                        help="the repository (default: this one)")
    root = parser.parse_args().root
    files = module_files(root)
    results = []

    graph = {}
    for f in files:
        for inc in includes(f):
            target = component(Path(inc))
            if target != component(f):
                graph.setdefault(component(f), set()).add(target)
    found = cycles(graph)
    results.append(("no include cycles", not found,
                    "; ".join(" <-> ".join(c) for c in found)))

    callers = sorted(f"{component(f)} includes {component(Path(i))}" for f in files for i in includes(f)
                     if component(f) != component(Path(i))
                     and component(f) not in FACADE_CALLERS.get(component(Path(i)), {component(f)}))
    results.append(("only the natives and a collector's facade include the facade", not callers,
                    ", ".join(callers)))

    stray = []
    for collector, own in COLLECTOR_FILES.items():
        users = {component(f) for f in files
                 if re.search(rf'^#include "gc/{collector}/', f.read_text(), re.M)}
        stray += [f"{c} includes gc/{collector}" for c in sorted(users - own)]
    results.append(("only a collector's files include its headers", not stray, ", ".join(stray)))

    system = []
    for f in files:
        if "/share/" not in str(f):
            continue
        for h in re.findall(r"^#include <([^>]+)>", f.read_text(), re.M):
            if h not in C_LIBRARY:
                system.append(f"{f.name}: <{h}>")
    results.append(("share/ includes only the C library's system headers", not system, ", ".join(system)))

    state = []
    for f in files:
        for n, line in enumerate(f.read_text().splitlines(), 1):
            if re.match(r"static (?!const\b|constexpr\b)[\w:<>,* ]*[ *]_\w+( = [^;]*)?;", line):
                state.append(f"{f.name}:{n}")
    results.append(("no file-level state", not state, ", ".join(state)))

    for name, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'} module layers: {name}" + ("" if ok else f" ({detail})"))
    passed = sum(ok for _, ok, _ in results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
