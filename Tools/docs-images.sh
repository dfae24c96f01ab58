#!/usr/bin/env bash
# Makes the pictures of README.md and docs/ with quire itself (`make docs-images`): the samples'
# document pages are processed, then stripped and rendered; every PNG under docs/images/ except
# viewer.png (a screenshot of `quire view`, made by the viewer's own target) is rewritten.
set -euo pipefail
QUIRE=${QUIRE:-.build/release/quire}
IMAGES=$(cd "$(dirname "$0")/.." && pwd)/${IMAGES:-docs/images}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$IMAGES"

# The document pages of the samples (phone captures and flatbed scans), in this order.
"$QUIRE" process Samples/scans/cap_*.jpg Samples/scans/scan_*.jpg -o "$WORK/out" --progress none -q

# The picture at the top of README.md: a phone photo and the page Quire made of it.
photo=Samples/scans/cap_009.jpg
page=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([p["files"]["page"] for p in r["pages"] if p["source"].endswith("cap_009.jpg")][0])' "$WORK/out/layout.json")
vipsthumbnail "$photo" -s 600 -o "$IMAGES/photo.png"
vipsthumbnail "$WORK/out/$page" -s 600 -o "$IMAGES/page.png"

# Strips: the strip resting on page 2, and the contact sheet of the batch.
"$QUIRE" strip "$WORK/out" --scale 2 --focus 2 --contact-sheet --columns 4 --format png > /dev/null
cp "$WORK/out/strips/strip-focus-2.png" "$IMAGES/strip.png"
vipsthumbnail "$WORK/out/strips/contact-sheet.png" -s 900 -o "$IMAGES/contact-sheet.png"

# Each layout at rest and mid-scroll, as `quire render` draws it with the real pages.
"$QUIRE" render "$WORK/out" --layout pager --offset 200 --background white -o "$IMAGES/layout-pager.png" > /dev/null
"$QUIRE" render "$WORK/out" --layout strip --scale 2 --index 3 --background white -o "$IMAGES/layout-strip.png" > /dev/null
"$QUIRE" render "$WORK/out" --layout halves --offset 120 --background white -o "$IMAGES/layout-halves.png" > /dev/null
"$QUIRE" render "$WORK/out" --layout carousel --offset 150 --background white -o "$IMAGES/layout-carousel.png" > /dev/null
"$QUIRE" render "$WORK/out" --layout featured --offset 140 --background white -o "$IMAGES/layout-featured.png" > /dev/null
"$QUIRE" render "$WORK/out" --layout strip --scale 2 --animation move --index 4 --progress 0.5 \
  --background white -o "$IMAGES/strip-move.png" > /dev/null

echo "pictures in $IMAGES/:"; ls "$IMAGES"
