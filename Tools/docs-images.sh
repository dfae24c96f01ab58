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

# The real documents of the samples (phone photos, scans, a scanned PDF), in natural order.
"$QUIRE" process Samples/documents -o "$WORK/out" --progress none -q

# The picture at the top of README.md: a phone photo and the page Quire made of it.
photo=Samples/documents/invoice.jpg
page=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([p["files"]["page"] for p in r["pages"] if p["source"].endswith("invoice.jpg")][0])' "$WORK/out/layout.json")
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

# Exports (docs/exports.md): the PDF's pages at their physical size, side by side (pdftoppm at
# 24 dpi, bottoms aligned), and one page's IIIF tiles at each scale factor, 6 px apart.
"$QUIRE" pdf "$WORK/out" -o "$WORK/pages.pdf" -q
pdftoppm -r 24 -png "$WORK/pages.pdf" "$WORK/pdfpage"
pdfpages=$(ls "$WORK"/pdfpage-*.png | sort -V)
vips arrayjoin "$(echo $pdfpages)" "$IMAGES/pdf-pages.png" \
  --across "$(echo "$pdfpages" | wc -l)" --shim 12 --valign high --background 128
"$QUIRE" iiif "$WORK/out" --base-url https://example.org/scans/iiif -q
tiles=$WORK/out/iiif/0001
levels=()
for s in $(python3 -c 'import json,sys; print(" ".join(map(str, json.load(open(sys.argv[1]))["tiles"][0]["scaleFactors"])))' "$tiles/info.json"); do
  row=$(python3 - "$tiles/info.json" "$s" <<'PY'
import json, sys
info, s = json.load(open(sys.argv[1])), int(sys.argv[2])
w, h, t = info["width"], info["height"], info["tiles"][0]["width"]
cols = -(-w // (t * s))
names = []
for y in range(0, h, t * s):
    for x in range(0, w, t * s):
        rw, rh = min(t * s, w - x), min(t * s, h - y)
        sw, sh = -(-rw // s), -(-rh // s)
        whole = (x, y, rw, rh) == (0, 0, w, h)
        names.append(("full" if whole else f"{x},{y},{rw},{rh}") + "/" + ("max" if whole and (sw, sh) == (w, h) else f"{sw},{sh}") + "/0/default.jpg")
print(cols, " ".join(names))
PY
)
  cols=${row%% *}
  files=$(for n in ${row#* }; do printf '%s ' "$tiles/$n"; done)
  vips arrayjoin "$files" "$WORK/level-$s.v" --across "$cols" --shim 6 --background 255
  levels+=("$WORK/level-$s.v")
done
joined=${levels[0]}
for ((i = 1; i < ${#levels[@]}; i++)); do
  vips join "$joined" "${levels[i]}" "$WORK/joined-$i.v" horizontal --expand --shim 40 --align high --background 255
  joined=$WORK/joined-$i.v
done
vipsthumbnail "$joined" -s 900 -o "$IMAGES/iiif-levels.png"
