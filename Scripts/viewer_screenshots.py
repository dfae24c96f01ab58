#!/usr/bin/env python3
"""Screenshots of the web viewer in each mode at phone (390x844, touch) and desktop (1280x800)
size, for docs/viewer.md: docs/images/viewer-modes-phone.png and viewer-modes-desktop.png; and the
viewer at rest on the desktop (viewer-rest.png, README) and on a phone (viewer-phone.png).

    quire process Samples/documents -o /tmp/vout
    .venv/bin/python Scripts/viewer_screenshots.py /tmp/vout

Needs selenium, Pillow, chromium and chromedriver (Tests/python/setup_venv.sh)."""
import shutil
import sys
import time
from pathlib import Path

from PIL import Image, ImageDraw
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parent.parent
MODES = [("pager", "Pager and strip"), ("halves", "Spread"), ("carousel", "Carousel"),
         ("featured", "Featured"), ("reader", "Reader, fit width")]
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}
PAGE = 7          # the invoice photo of Samples/documents


def driver():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
              "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(a)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def shot(d, out, size, mode):
    w, h, mobile = SIZES[size]
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": mobile})
    d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})
    d.get("about:blank")
    d.get((out / "index.html").as_uri() + f"#page={PAGE}")
    time.sleep(0.6)
    if mode == "reader":
        d.execute_script("window.quireViewer.openReader(); document.querySelector('#reader [data-act=width]').click();"
                         "document.activeElement.blur()")
    elif mode != "pager":
        d.execute_script("window.quireViewer.setLayout(arguments[0]); document.activeElement.blur()", mode)
    time.sleep(1.0)
    path = Path("/tmp") / f"viewer-{size}-{mode}.png"
    d.save_screenshot(str(path))
    return Image.open(path).convert("RGB").crop((0, 0, w, h))


def montage(images, labels, scale, columns):
    tiles = [im.resize((int(im.width * scale), int(im.height * scale)), Image.LANCZOS) for im in images]
    gap, caption = 12, 22
    tw, th = max(t.width for t in tiles), max(t.height for t in tiles)
    rows = (len(tiles) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * tw + (columns + 1) * gap, rows * (th + caption + gap) + gap), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for k, (t, label) in enumerate(zip(tiles, labels)):
        x, y = gap + (k % columns) * (tw + gap), gap + (k // columns) * (th + caption + gap)
        draw.text((x, y), label, fill=(0, 0, 0))
        sheet.paste(t, (x, y + caption))
    return sheet


def main():
    out = Path(sys.argv[1]).resolve()
    d = driver()
    try:
        for size, scale, columns in [("phone", 0.6, 5), ("desktop", 0.5, 3)]:
            images = [shot(d, out, size, mode) for mode, _ in MODES]
            sheet = montage(images, [label for _, label in MODES], scale, columns)
            dest = ROOT / "docs" / "images" / f"viewer-modes-{size}.png"
            sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(dest, optimize=True)
            print(f"wrote {dest} ({sheet.width}x{sheet.height})")
        for size, name, width in [("desktop", "viewer-rest.png", 640), ("phone", "viewer-phone.png", 300)]:
            image = shot(d, out, size, "pager")
            image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
            dest = ROOT / "docs" / "images" / name
            image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(dest, optimize=True)
            print(f"wrote {dest} ({image.width}x{image.height})")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
