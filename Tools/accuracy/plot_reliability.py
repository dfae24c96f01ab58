"""The verifier's reliability curve as a PNG (docs/correction.md), from the CSV that
`QuireAccuracy --verifier-report TABLE --reliability-csv FILE` writes: predicted probability
(the mean of each 0.1 bin) against the share of the bin's candidates that are the page, for
the real photos' and the generated photos' candidates, all held out (leave-one-publisher-out).

    python Tools/accuracy/plot_reliability.py reliability.csv docs/images/verifier-reliability.png
"""
import csv
import sys

from PIL import Image, ImageDraw

SIZE, PAD = 420, 48
COLOURS = {"real": (200, 60, 40), "generated": (40, 100, 200)}


def main(source, target):
    rows = list(csv.DictReader(open(source)))
    img = Image.new("RGB", (SIZE, SIZE), "white")
    d = ImageDraw.Draw(img)
    span = SIZE - 2 * PAD

    def at(p, o):
        return PAD + p * span, SIZE - PAD - o * span

    d.rectangle([PAD, PAD, SIZE - PAD, SIZE - PAD], outline=(0, 0, 0))
    for t in range(11):
        x, y = at(t / 10, t / 10)
        d.line([x, SIZE - PAD, x, SIZE - PAD + 4], fill=(0, 0, 0))
        d.line([PAD - 4, y, PAD, y], fill=(0, 0, 0))
        if t % 5 == 0:
            d.text((x - 8, SIZE - PAD + 6), f"{t / 10:.1f}", fill=(0, 0, 0))
            d.text((PAD - 30, y - 6), f"{t / 10:.1f}", fill=(0, 0, 0))
    d.line([*at(0, 0), *at(1, 1)], fill=(160, 160, 160))
    for i, (name, colour) in enumerate(COLOURS.items()):
        pts = [(float(r["mean_predicted"]), float(r["observed"]), int(r["candidates"])) for r in rows if r["set"] == name]
        if not pts:
            continue
        d.line([at(p, o) for p, o, _ in pts], fill=colour, width=2)
        for p, o, n in pts:
            x, y = at(p, o)
            r = 2 + min(6, n ** 0.5 / 3)
            d.ellipse([x - r, y - r, x + r, y + r], fill=colour)
        d.text((PAD + 8, PAD + 8 + 14 * i), f"{name} photos' candidates", fill=colour)
    d.text((SIZE / 2 - 60, SIZE - 20), "predicted (held out)", fill=(0, 0, 0))
    d.text((6, 20), "observed share that is the page", fill=(0, 0, 0))
    img.save(target)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
