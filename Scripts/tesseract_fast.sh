#!/usr/bin/env bash
# `make tesseract-fast`: Quire's own build of the libtesseract Debian installed (docs/install.md,
# "Quire's own libtesseract"). Debian's source package of the SAME version as the installed
# libtesseract-dev (its patches included) is built with Debian's configure options and hardening
# flags plus link-time optimisation and -O3, shared library only (no CLI, no training tools, no
# static archive), into a cache folder keyed on that version and on the flags:
#   ${QUIRE_TESSERACT_CACHE:-$HOME/.cache/quire}/tesseract-<version>-<flags hash>/libtesseract.so.5
# A present cache folder is reused at once. On success the script prints that folder (stdout, one
# line); on any failure (no deb-src entry that can be added, no network, a build error) it prints
# ONE line saying why (stderr) and where the log is, prints nothing on stdout and exits 0: the
# build then links Debian's library, which is never an error.
# Options: --dir prints the cache folder the current version and flags would use, and exits.
set -u -o pipefail

# The one knob that makes the library faster: whole-program (link-time) optimisation, -O3 and
# no semantic interposition, which lets GCC inline Tesseract's calls to its own exported
# functions (figures in docs/benchmarks.md, "OCR: our own libtesseract, shipped").
OPT_FLAGS="-O3 -flto=2 -fno-semantic-interposition"
# Debian's configure options (debian/rules) minus the install paths; --disable-static and
# --disable-doc only skip what Quire does not load.
CONFIGURE_ARGS="--disable-tessdata-prefix --disable-static --disable-doc"
# Debian's own additions to the compiler and linker flags (debian/rules).
DEBIAN_CXXFLAGS="-Wall -fPIC -DTESSDATA_PREFIX='\"/usr/share/tesseract-ocr/5\"'"
DEBIAN_LDFLAGS="-llept -Wl,-z,defs"

cache_root=${QUIRE_TESSERACT_CACHE:-${HOME:-/tmp}/.cache/quire}
log="$cache_root/tesseract-build.log"

# One line on stderr, nothing on stdout, status 0: the build falls back to Debian's library.
fallback() {
  echo "note: Quire's fast libtesseract not built ($1); quire links Debian's libtesseract${2:+ (log: $log)}" >&2
  exit 0
}

command -v dpkg-query >/dev/null 2>&1 || fallback "not a Debian system"
version=$(dpkg-query -W -f='${Version}' libtesseract-dev 2>/dev/null) || true
[ -n "$version" ] || fallback "libtesseract-dev is not installed"
source_pkg=$(dpkg-query -W -f='${source:Package}' libtesseract-dev 2>/dev/null) || true
source_pkg=${source_pkg:-tesseract}
key=$(printf '%s|%s|%s|%s|%s' "$version" "$OPT_FLAGS" "$CONFIGURE_ARGS" "$DEBIAN_CXXFLAGS" "$DEBIAN_LDFLAGS" \
  | sha256sum | cut -c1-10)
dir="$cache_root/tesseract-$version-$key"

if [ "${1:-}" = --dir ]; then
  echo "$dir"
  exit 0
fi
if [ -f "$dir/libtesseract.so.5" ]; then
  echo "$dir"
  exit 0
fi

mkdir -p "$cache_root" 2>/dev/null || fallback "cannot create $cache_root"
: >"$log" 2>/dev/null || fallback "cannot write $log"
for tool in apt-get dpkg-source dpkg-buildflags autoreconf libtoolize make g++ pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || fallback "$tool is missing (make deps installs it)"
done

# Debian's source needs a deb-src entry; a fresh machine has none. Added once, as root (sudo
# when not root, as `make deps` does), for the release this machine runs, only when apt knows no
# source for the package.
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
if [ -z "$(apt-cache showsrc "$source_pkg" 2>/dev/null)" ]; then
  codename=$(. /etc/os-release 2>/dev/null && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}")
  [ -n "$codename" ] || fallback "no deb-src entry for $source_pkg and not a Debian release to add one for"
  list=/etc/apt/sources.list.d/quire-debsrc.sources
  {
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\n' \
      "$codename" "$codename"
    printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n'
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian-security\nSuites: %s-security\nComponents: main\n' \
      "$codename"
    printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
  } | $SUDO tee "$list" >>"$log" 2>&1 || fallback "cannot add a deb-src entry (root or sudo needed)" log
  $SUDO apt-get update -qq >>"$log" 2>&1 || fallback "apt-get update failed" log
fi

work=$(mktemp -d "$cache_root/tesseract-build.XXXXXX") || fallback "cannot create a build folder"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
(cd "$work" && apt-get source -qq "$source_pkg=$version") >>"$log" 2>&1 \
  || fallback "apt-get source $source_pkg=$version failed" log
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -n "$src" ] || fallback "apt-get source $source_pkg=$version unpacked nothing" log

# Debian's hardening flags without -g (a smaller library; no debugger reads it) and with
# OPT_FLAGS after Debian's -O2, so -O3 wins.
base_cxxflags=$(cd "$src" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CXXFLAGS | sed 's/-g //; s/ -g$//')
base_ldflags=$(cd "$src" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)
(
  set -e
  cd "$src"
  ./autogen.sh
  # shellcheck disable=SC2086 # CONFIGURE_ARGS is a list of options
  ./configure $CONFIGURE_ARGS --prefix=/usr CXXFLAGS="$base_cxxflags $DEBIAN_CXXFLAGS $OPT_FLAGS" \
    LDFLAGS="$DEBIAN_LDFLAGS $base_ldflags $OPT_FLAGS"
  make -j"$(nproc)" libtesseract.la
) >>"$log" 2>&1 || fallback "the build of $source_pkg $version failed" log

real=$(cd "$src/.libs" && ls libtesseract.so.5.* 2>/dev/null | head -1)
[ -n "$real" ] || fallback "the build made no libtesseract.so.5" log
mkdir -p "$work/out"
cp "$src/.libs/$real" "$work/out/libtesseract.so.5" && strip --strip-unneeded "$work/out/libtesseract.so.5" \
  && cp "$src/LICENSE" "$work/out/LICENSE" \
  && printf 'tesseract %s (Debian source)\nflags %s\nbuilt %s in %s s\n' "$version" "$OPT_FLAGS" "$(date -u +%FT%TZ)" \
    "$(($(date +%s) - start))" >"$work/out/BUILD-INFO" || fallback "cannot copy the library" log
# A rename, so a half-written cache folder is never seen (a concurrent build's rename may win).
mv "$work/out" "$dir" 2>/dev/null || [ -f "$dir/libtesseract.so.5" ] || fallback "cannot write $dir" log
echo "$dir"
