#!/usr/bin/env python3
"""CPU seconds (user + system, the test process and the subprocesses it reaped) of each Swift
Testing suite, from one serial run: `swift test --no-parallel` under a pseudo-terminal, the test
process's /proc counters read at every "Suite X started" and "Suite X passed/failed" line.

Swift Testing's own "passed after" times cannot be used for this: in a parallel run every test's
clock starts when it is queued (docs/benchmarks.md, "Test suite time"), and on a shared machine
wall time is not CPU. A nested suite's CPU is also in its parent's.

    python3 Tools/testtime/swift_suite_cpu.py [--scratch-path .build-test] [--filter X] > table.tsv
    python3 Tools/testtime/swift_suite_cpu.py --binary .build-test/debug/QuirePackageTests.xctest
"""
import argparse
import os
import re
import subprocess
import sys

SUITE_LINE = re.compile(r"Suite (\S+) (started|passed|failed)")
TEST_BINARY = "QuirePackageTests.xctest"


def _parent(pid):
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def test_process_cpu(root):
    """User + system CPU of the running test binary below `root` and of the children it reaped,
    summed over every such process alive (the XCTest and the Swift Testing runs are separate
    processes); other engineers' test binaries on the same machine are not below `root`."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if TEST_BINARY not in open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace"):
                continue
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        up = int(fields[1])
        while up > 1 and up != root:
            up = _parent(up)
        if up == root:
            total += sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scratch-path", default=".build-test")
    parser.add_argument("--filter")
    parser.add_argument("--binary", help="run this built QuirePackageTests.xctest directly (Swift Testing only)")
    args = parser.parse_args()
    command = ["swift", "test", "--skip-build", "--no-parallel", "--scratch-path", args.scratch_path]
    if args.binary:
        command = [args.binary, "--testing-library", "swift-testing", "--no-parallel"]
    if args.filter:
        command += ["--filter", args.filter]
    # a pseudo-terminal, so that the runner's lines arrive as they are written
    shell = " ".join(f"'{c}'" for c in command)
    runner = subprocess.Popen(["script", "-qfec", shell, "/dev/null"], stdout=subprocess.PIPE, text=True,
                              errors="replace")
    started, cpu = {}, {}
    for line in runner.stdout:
        sys.stderr.write(line)
        match = SUITE_LINE.search(line)
        if not match:
            continue
        name, event = match.groups()
        now = test_process_cpu(runner.pid)
        if event == "started":
            started[name] = now
        elif name in started:
            cpu[name] = now - started.pop(name)
    status = runner.wait()
    # A reading that went backwards (a process counted twice at one end: seen once, on a loaded
    # machine) is shown as unmeasured and left out of the sum rather than subtracted.
    measured = {name: seconds for name, seconds in cpu.items() if seconds >= 0}
    for name, seconds in sorted(measured.items(), key=lambda kv: -kv[1]):
        print(f"{name}\t{seconds:.2f}")
    for name in sorted(cpu.keys() - measured.keys()):
        print(f"{name}\tunmeasured")
    print(f"(all {len(measured)} suites measured)\t{sum(measured.values()):.2f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
