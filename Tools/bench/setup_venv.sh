#!/usr/bin/env bash
# Creates the benchmark's Python virtualenv (.venv by default) and installs, each on its own so
# that one failure only skips that peer: numpy + Pillow (the capture generator, the Pillow peer)
# and opencv-python-headless (the OpenCV document-scanner peer). Safe to rerun: installs only
# what is missing.
set -u
VENV=${1:-.venv}
PY=${PYTHON:-python3}
if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PY" -m venv "$VENV" 2>/dev/null; then
    echo "python3 -m venv failed; installing python3-venv with apt-get" >&2
    SUDO=$( [ "$(id -u)" = 0 ] || echo sudo )
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv
    rm -rf "$VENV"
    "$PY" -m venv "$VENV" || { echo "cannot create $VENV: Python peers will be skipped" >&2; exit 0; }
  fi
fi
install() { # module package
  if "$VENV/bin/python" -c "import $1" 2>/dev/null; then return; fi
  echo "installing $2 into $VENV" >&2
  "$VENV/bin/pip" install -q --disable-pip-version-check "$2" \
    || echo "note: could not install $2; the benchmark will skip what needs it" >&2
}
install numpy "numpy>=1.26"
install PIL "pillow>=10"
install cv2 "opencv-python-headless>=4.8"
exit 0
