#!/usr/bin/env bash
# Prints the SHA-256 of `quire render` outputs for every layout, animation and a sweep, over
# the OUT folder given (made once with `quire process`). Run it with the binaries built before
# and after a refactor and diff the two listings: identical listings mean identical bytes.
# Usage: Scripts/render_equivalence.sh QUIRE OUT
set -euo pipefail
quire=$1 out=$2
renders=$(mktemp -d)
trap 'rm -rf "$renders"' EXIT
run() { local name=$1; shift; "$quire" render "$out" "$@" -o "$renders/$name" >/dev/null; echo "$(sha256sum < "$renders/$name" | cut -c1-16) $name $*"; }
for layout in pager strip halves carousel featured; do
  run "$layout.png" --layout "$layout"
  run "$layout-o.png" --layout "$layout" --offset 150 --viewport 390x700
  run "$layout-i.png" --layout "$layout" --index 2
  run "$layout-sweep.gif" --layout "$layout" --sweep 0:400:4
done
for anim in move delete; do
  for p in 0.25 0.75; do run "$anim-$p.png" --layout strip --animation "$anim" --index 1 --progress "$p"; done
done
