#!/usr/bin/env python3
"""Figures for docs/viewer.md: the viewer's load time and JS heap with 520 and 5,000 pages, and
frame times while zooming in the reader (requestAnimationFrame deltas, median and p95).

    quire process Samples/documents -o /tmp/vout
    .venv/bin/python Scripts/viewer_figures.py /tmp/vout

Large batches are made as Tests/python/test_viewer.py makes them: OUT's pages repeated in a
layout.js of their own, next to links to OUT's files. Headless Chromium, 1280 x 800, file://."""
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def driver():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800", "--hide-scrollbars",
              "--force-device-scale-factor=1", "--enable-precise-memory-info"]:
        options.add_argument(a)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def batch(out, tmp, count):
    layout = json.loads((out / "layout.json").read_text())
    pages = layout["pages"]
    layout["pages"] = [dict(pages[i % len(pages)], index=i) for i in range(count)]
    folder = tmp / f"b{count}"
    folder.mkdir()
    for name in ["index.html", "quire-viewer", "pages", "previews", "thumbs"]:
        (folder / name).symlink_to(out / name)
    (folder / "layout.js").write_text("window.QUIRE_LAYOUT = " + json.dumps(layout) + ";\n")
    return folder


def load(d, folder):
    d.get("about:blank")
    d.get((folder / "index.html").as_uri())
    for _ in range(400):
        if d.execute_script("return !!(window.quireViewer && window.quireViewer.state().count)"):
            break
        time.sleep(0.01)
    time.sleep(0.5)
    ready = d.execute_script("return performance.getEntriesByName('quire-ready')[0].startTime")
    d.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    heap = d.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"]
    return ready, heap, d.execute_script("return window.quireViewer.state().domElements")


ZOOM = """var cb = arguments[arguments.length - 1], v = document.querySelector('#reader .reader-view'),
    b = v.getBoundingClientRect(), deltas = [], last = null, n = 0;
function frame(t) {
  if (last !== null) deltas.push(t - last);
  last = t;
  v.dispatchEvent(new WheelEvent('wheel', {deltaY: n < 60 ? -40 : 40, clientX: b.left + b.width * 0.4,
      clientY: b.top + b.height * 0.45, bubbles: true, cancelable: true}));
  if (++n < 120) requestAnimationFrame(frame); else cb(deltas);
}
requestAnimationFrame(frame);"""


def main():
    out = Path(sys.argv[1]).resolve()
    d = driver()
    d.set_script_timeout(60)
    tmp = Path(tempfile.mkdtemp())
    try:
        for count in [520, 5000]:
            folder = batch(out, tmp, count)
            runs = [load(d, folder) for _ in range(3)]
            ready = statistics.median(r[0] for r in runs)
            heap = statistics.median(r[1] for r in runs)
            print(f"{count} pages: ready {ready:.0f} ms after navigation start (median of 3), "
                  f"JS heap {heap / 1e6:.1f} MB, {runs[0][2]} page elements")
        d.execute_script("window.quireViewer.openReader()")
        time.sleep(0.5)
        deltas = []
        for _ in range(3):
            d.execute_script("document.querySelector('#reader [data-act=page]').click()")
            time.sleep(0.3)
            deltas += d.execute_async_script(ZOOM)
        deltas.sort()
        p95 = deltas[int(0.95 * (len(deltas) - 1))]
        print(f"zooming (wheel each frame, {len(deltas)} frames): median {statistics.median(deltas):.1f} ms, "
              f"p95 {p95:.1f} ms, max {deltas[-1]:.1f} ms; source at the end: {d.execute_script('return window.quireViewer.state().reader.source')}")
    finally:
        d.quit()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
