#!/usr/bin/env bash
# `make test`'s body: the whole suite, with its independent parts run at once so that both cores
# stay busy (docs/benchmarks.md, "Test suite time"):
#   1. the tests' Python virtualenv (pip) beside the build of the library modules and `quire`;
#   2. the Python tests (they need only `quire`) beside the build of the Swift test targets and
#      then the Swift tests.
# The Python tests' output goes to $SCRATCH/python-tests.log and is printed when both halves are
# done; the exit status is the first failure's (Swift first), 0 when both pass.
# Environment: SWIFT (the swift command), SCRATCH (the build folder), PYTEST_WORKERS ("auto":
# "-n 2 --dist loadfile" when pytest-xdist is in .venv; empty: one by one; else pytest's own
# options), and whatever the build reads (QUIRE_OPTIMIZE_TESTS).
set -u
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH=${SCRATCH:-.build-test}
PYTEST_WORKERS=${PYTEST_WORKERS-auto}
mkdir -p "$SCRATCH"
venv_log="$SCRATCH/test-venv.log"
python_log="$SCRATCH/python-tests.log"

bash Tests/python/setup_venv.sh .venv >"$venv_log" 2>&1 &
venv=$!
$SWIFT build --product quire --scratch-path "$SCRATCH"
built=$?
wait $venv
venv_status=$?
cat "$venv_log"
if [ $built -ne 0 ] || [ $venv_status -ne 0 ]; then
  echo "make test: the build of quire (status $built) or the test venv (status $venv_status) failed" >&2
  exit 1
fi
quire="$($SWIFT build --show-bin-path --scratch-path "$SCRATCH")/quire"

if [ "$PYTEST_WORKERS" = auto ]; then
  PYTEST_WORKERS=$(.venv/bin/python -c 'import xdist' 2>/dev/null && echo '-n 2 --dist loadfile')
fi
echo "make test: the Python tests run beside the Swift tests' build and run; their output: $python_log"
# shellcheck disable=SC2086 # PYTEST_WORKERS is a list of options
QUIRE_BIN="$quire" .venv/bin/python -m pytest -q $PYTEST_WORKERS Tests/python >"$python_log" 2>&1 &
python=$!

# The Swift tests run Tesseract in their own process: TextEngine gives each thread that calls it
# one OpenMP thread, as in `quire`, so no OpenMP threads spin on cores the other tests and the
# Python half need (docs/benchmarks.md, "Test suite time", seventh look). No OMP_THREAD_LIMIT is
# set, also as in `quire`: TextEngineTests checks that Tesseract's regions then run inline.
$SWIFT build --build-tests --scratch-path "$SCRATCH" \
  && $SWIFT test --skip-build --scratch-path "$SCRATCH"
swift_status=$?
wait $python
python_status=$?
echo "---- Python tests ($python_log) ----"
cat "$python_log"
echo "make test: Swift build and tests status $swift_status, Python tests status $python_status"
[ $swift_status -ne 0 ] && exit $swift_status
exit $python_status
