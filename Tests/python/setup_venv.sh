#!/usr/bin/env bash
# Creates the tests' Python virtualenv (.venv by default) and installs what Tests/python needs
# from PyPI, each package on its own so that one that cannot install only skips its tests.
# Safe to rerun: installs only what is missing.
set -u
VENV=${1:-.venv}
PY=${PYTHON:-python3}
if [ ! -x "$VENV/bin/python" ]; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV" || { echo "cannot create $VENV (is python3-venv installed?)" >&2; exit 1; }
fi
install() { # module package
  if "$VENV/bin/python" -c "import $1" 2>/dev/null; then return; fi
  echo "installing $2 into $VENV" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check "$2" \
    || echo "note: could not install $2; the tests that need it will skip" >&2
}
install pytest "pytest>=7"
"$VENV/bin/python" -c "import pytest" || { echo "pytest is required for Tests/python" >&2; exit 1; }
# pytest-xdist: `make test PYTEST_WORKERS="-n 2 --dist loadfile"` runs the files on two workers
# (one by one by default: see the Makefile); the workers share the processed folders.
install xdist "pytest-xdist>=3.5"
install selenium "selenium>=4.10"
install jsonschema "jsonschema>=4.17"
install PIL "pillow>=10"
install numpy "numpy>=1.26"
install iiif_prezi3 "iiif-prezi3>=2"
install iiif_validator "iiif-validator>=1.0.5"
# axe-core for the viewer's accessibility test: a current axe.min.js ships inside
# pytest-playwright-axe (axe-core 4.14); only that file is used, so no Playwright (--no-deps).
# It declares Python >= 3.12 for its Playwright side alone; the older bundle is the fallback.
if ! "$VENV/bin/python" -c "import importlib.util as u; exit(not (u.find_spec('pytest_playwright_axe') or u.find_spec('axe_playwright_python')))" 2>/dev/null; then
  echo "installing axe-core (pytest-playwright-axe, no dependencies) into $VENV" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps --ignore-requires-python "pytest-playwright-axe>=4.10" \
    || "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps "axe-playwright-python>=0.1.8" \
    || echo "note: could not install an axe-core bundle; the accessibility tests will skip" >&2
fi
exit 0
