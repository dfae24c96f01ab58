#!/usr/bin/env python3
"""CPU seconds of each Python test file, summed from the per-test lines conftest writes under
QUIRE_TEST_CPU=FILE (test id, CPU s of the pytest process and the children it reaped, wall s),
largest first; the pooled Chromiums' own CPU is its own line. For the per-file table of
docs/benchmarks.md, "Test suite time":

    QUIRE_TEST_CPU=/tmp/cpu.tsv QUIRE_BIN=... .venv/bin/python -m pytest -q -p no:xdist Tests/python
    python3 Tools/testtime/python_file_cpu.py /tmp/cpu.tsv
"""
import sys
from collections import defaultdict


def main(path):
    cpu, wall, tests = defaultdict(float), defaultdict(float), defaultdict(int)
    for line in open(path):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3:
            continue
        name = fields[0].split("::", 1)[0].rsplit("/", 1)[-1]
        cpu[name] += float(fields[1])
        wall[name] += float(fields[2])
        tests[name] += 1
    for name in sorted(cpu, key=lambda n: -cpu[n]):
        print(f"{name}\t{tests[name]}\t{cpu[name]:.1f}\t{wall[name]:.0f}")
    print(f"(all)\t{sum(tests.values())}\t{sum(cpu.values()):.1f}\t{sum(wall.values()):.0f}")


if __name__ == "__main__":
    main(sys.argv[1])
