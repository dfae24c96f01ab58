"""The viewer's review mode (issue 33, "Checking and fixing"), in headless Chromium, on a hand-made
OUT whose layout.json has the review contract's fields (capture, correctionKey, corrected,
excluded): the list least sure first, corners dragged with real pointer events (mouse and touch)
and moved with the keyboard, quarter turns, split/join and the split line, exclude remembered
across a reload with undo, "Delete from view" as an exclude, the downloaded corrections.json, the
served save against a stand-in for `quire view --serve` (the contract's answers), and axe-core.

The round trip through `quire process --corrections` is in test_review_roundtrip.py."""
import json
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import chromium as _driver
from test_viewer_reading import PHONE, axe_source, key, phone, run_axe, wait_for

REPO = Path(__file__).resolve().parents[2]
VIEWER = REPO / "Viewer"
# The hand-made capture: a 3200 x 2400 source drawn as an 800 x 600 JPEG (scale 4).
SRC_W, SRC_H, CAP_W, CAP_H = 3200, 2400, 800, 600


def _image(path, size, colour, quad=None):
    from PIL import Image, ImageDraw
    im = Image.new("RGB", size, (40, 40, 48))
    draw = ImageDraw.Draw(im)
    if quad:
        draw.polygon([tuple(c) for c in quad], fill=colour)
    else:
        draw.rectangle([8, 8, size[0] - 9, size[1] - 9], fill=colour)
        for y in range(30, size[1] - 30, 24):
            draw.line([30, y, size[0] - 30, y], fill=(60, 60, 60), width=3)
    path.parent.mkdir(parents=True, exist_ok=True)
    im.save(path, quality=85)


def _page(i, key, **kw):
    n = f"{i + 1:04d}"
    p = {"index": i, "source": key.split("#")[0], "sourcePage": 0, "orientation": 1, "width": 1200, "height": 1600,
         "aspectRatio": 0.75, "files": {"page": f"pages/{n}.jpg", "preview": f"previews/{n}.jpg", "thumbnail": f"thumbs/{n}.jpg"},
         "correction": "none", "quad": None, "quadConfidence": None, "skewDegrees": None, "crop": None, "split": None,
         "rotation": 0, "rotationConfidence": None, "correctionKey": key,
         "capture": {"file": f"captures/{n}.jpg", "width": CAP_W, "height": CAP_H, "sourceWidth": SRC_W, "sourceHeight": SRC_H}}
    p.update(kw)
    return p


QUAD_A = [[400, 300], [2800, 360], [2760, 2200], [440, 2100]]
QUAD_B = [[600, 200], [2600, 260], [2500, 2300], [500, 2240]]
SPREAD_L = [[200, 200], [1600, 220], [1600, 2200], [220, 2180]]
SPREAD_R = [[1600, 220], [3000, 240], [2980, 2200], [1600, 2200]]


def make_out(root: Path) -> Path:
    """A 6-page OUT: a sure photo, an unsure photo, a scan turned with low confidence, a split
    spread (two pages, one capture), a plain page; one source already excluded by a correction."""
    out = root / "review-out"
    (out / "quire-viewer").mkdir(parents=True)
    for f in VIEWER.rglob("*"):
        if f.is_file() and f.suffix in (".js", ".css", ".html"):
            dest = out / (f.name if f.name == "index.html" else Path("quire-viewer") / f.relative_to(VIEWER))
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, dest)
    split = lambda part, side, x, w: {"part": part, "count": 2, "side": side, "rect": {"x": x, "y": 0, "width": w, "height": 2000}, "gutter": "fold"}
    pages = [
        _page(0, "in/sure.jpg", correction="perspective", quad=QUAD_A, quadConfidence=0.93, rotationConfidence=9.5),
        _page(1, "in/unsure.jpg", correction="perspective", quad=QUAD_B, quadConfidence=0.31, rotationConfidence=7.0),
        _page(2, "in/scan.jpg", correction="deskew", skewDegrees=1.5, crop={"x": 100, "y": 80, "width": 3000, "height": 2250},
              rotation=90, rotationConfidence=1.2),
        _page(3, "in/book.jpg", correction="perspective", quad=SPREAD_L, quadConfidence=0.8, rotationConfidence=8.5,
              split=split(1, "left", 0, 1400)),
        _page(4, "in/book.jpg", correction="perspective", quad=SPREAD_R, quadConfidence=0.8, rotationConfidence=8.5,
              split=split(2, "right", 1400, 1400)),
        _page(5, "in/plain.jpg", quadConfidence=0.7),
    ]
    pages[4]["capture"] = dict(pages[3]["capture"])
    colours = [(235, 230, 220), (220, 225, 235), (230, 235, 220), (240, 220, 220), (220, 240, 220), (235, 235, 235)]
    for p, c in zip(pages, colours):
        for kind, size in [("page", (1200, 1600)), ("preview", (600, 800)), ("thumbnail", (192, 256))]:
            _image(out / p["files"][kind], size, c)
        q = p["quad"] or [[100, 100], [3100, 100], [3100, 2300], [100, 2300]]
        if p["split"] is None or p["split"]["part"] == 1:
            quad = q if p["split"] is None else SPREAD_L[:1] + SPREAD_R[1:3] + SPREAD_L[3:]
            _image(out / p["capture"]["file"], (CAP_W, CAP_H), c, [[x * CAP_W / SRC_W, y * CAP_H / SRC_H] for x, y in quad])
    layout = {"schema": "quire.layout/1", "viewport": {"width": 390, "height": 844, "stripHeight": 66}, "pages": pages,
              "errors": [], "options": {"previewSize": 800, "thumbnailSize": 256},
              "excluded": [{"source": "in/gone.jpg", "sourcePage": 0, "correctionKey": "in/gone.jpg"}]}
    write_layout(out, layout)
    return out


def write_layout(out, layout):
    (out / "layout.json").write_text(json.dumps(layout, indent=1))
    (out / "layout.js").write_text("window.QUIRE_LAYOUT = " + json.dumps(layout) + ";\n")


@pytest.fixture()
def review_out(tmp_path):
    pytest.importorskip("PIL")
    return make_out(tmp_path)


def open_review(d, out, page=None, url=None):
    d.get(url or (out / "index.html").as_uri() + ("#review&page=%d" % page if page else "#review"))
    return wait_for(d, "window.quireViewer && window.quireViewer.state().review && window.quireViewer.state().review.open"
                       " && window.quireViewer.state().review", "review mode opens")


def review(d):
    return d.execute_script("return window.quireViewer.state().review")


def handle_centre(d, i):
    """The screen centre of corner handle i, and the frame's rect."""
    return d.execute_script("""var h = document.querySelectorAll('#review .rv-handle')[arguments[0]].getBoundingClientRect(),
        f = document.querySelector('#review .rv-frame').getBoundingClientRect();
        return {x: h.left + h.width / 2, y: h.top + h.height / 2, fw: f.width, fh: f.height, fx: f.left, fy: f.top};""", i)


def click(d, selector):
    d.find_element("css selector", selector).click()


# ---- the list ----

def test_review_lists_least_sure_first_and_marks_them(review_out):
    d = _driver(1280, 800)
    try:
        r = open_review(d, review_out)
        keys = [it["key"] for it in r["items"]]
        # sure: unsure.jpg 0.31, the scan's orientation 1.2/8 = 0.15 -> the scan first; the left-out source last (no pages)
        assert keys[:2] == ["in/scan.jpg", "in/unsure.jpg"], keys
        assert keys[-1] == "in/gone.jpg" and len(keys) == 6, keys      # the spread is one item
        low = {it["key"] for it in r["items"] if it["low"]}
        assert low == {"in/scan.jpg", "in/unsure.jpg"}, low
        assert r["key"] == "in/scan.jpg" and r["page"] == 3
        marked = d.execute_script("return Array.from(document.querySelectorAll('#review .rv-item.low')).map(function (b) { return b.dataset.key; })")
        assert set(marked) == low
        assert "low confidence" in d.find_element("css selector", '#review .rv-item[data-key="in/scan.jpg"]').get_attribute("textContent")
        click(d, "#review .rv-order")
        assert [it["key"] for it in review(d)["items"]] == ["in/sure.jpg", "in/unsure.jpg", "in/scan.jpg", "in/book.jpg", "in/plain.jpg", "in/gone.jpg"]
        # the address: #review&page=N opens that page's item, and follows the item shown
        r = open_review(d, review_out, page=5)
        assert r["key"] == "in/book.jpg" and r["split"] is True
        click(d, "#review .rv-next")
        wait_for(d, "location.hash === '#review&page=' + window.quireViewer.state().review.page", "address follows")
        # leaving through the View menu gives the reading views back
        from selenium.webdriver.support.ui import Select
        Select(d.find_element("id", "menu")).select_by_value("pager")
        s = wait_for(d, "window.quireViewer.state().layout === 'pager' && window.quireViewer.state()", "pager")
        assert s["count"] == 6 and not s["review"]["open"]
    finally:
        d.quit()


# ---- corners: pointer (mouse, touch) and keyboard ----

def test_drag_a_corner_with_the_mouse_gives_source_pixels_and_downloads(review_out, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    d = _driver(1280, 800)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    try:
        d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        open_review(d, review_out, page=2)                       # unsure.jpg, QUAD_B
        assert review(d)["quad"] == QUAD_B
        h = handle_centre(d, 0)
        scale = SRC_W / h["fw"]
        assert abs(h["x"] - h["fx"] - QUAD_B[0][0] / scale) < 1 and abs(h["y"] - h["fy"] - QUAD_B[0][1] / scale) < 1, h
        dx, dy = 37, 23
        ActionChains(d).move_to_element(d.find_elements("css selector", "#review .rv-handle")[0]) \
            .click_and_hold().move_by_offset(10, 5).move_by_offset(dx - 10, dy - 5).release().perform()
        e = wait_for(d, "window.quireViewer.state().review.entry.corners && window.quireViewer.state().review.entry", "corner committed")
        want = [QUAD_B[0][0] + dx * scale, QUAD_B[0][1] + dy * scale]
        assert abs(e["corners"][0][0] - want[0]) <= 2 and abs(e["corners"][0][1] - want[1]) <= 2, (e, want)
        assert e["corners"][1:] == QUAD_B[1:]
        # the handle followed the pointer
        h2 = handle_centre(d, 0)
        assert abs(h2["x"] - h["x"] - dx) < 1.5 and abs(h2["y"] - h["y"] - dy) < 1.5
        # a corner dragged across the page's other side is refused (quire process straightens convex quads only)
        h1 = handle_centre(d, 1)
        ActionChains(d).move_to_element(d.find_elements("css selector", "#review .rv-handle")[0]) \
            .click_and_hold().move_by_offset(10, 0).move_by_offset(int(h1["x"] - h2["x"]) + 40, int(h1["y"] - h2["y"]) + 30).release().perform()
        assert review(d)["entry"] == e and "Not moved" in review(d)["status"]
        # download: the file is the corrections file, one entry per line, keys sorted
        click(d, "#review .rv-save-btn")
        path = downloads / "corrections.json"
        for _ in range(100):
            if path.exists() and path.stat().st_size:
                break
            time.sleep(0.05)
        text = path.read_text()
        data = json.loads(text)
        assert data["in/unsure.jpg"]["corners"] == e["corners"]
        assert data["in/gone.jpg"] == {"exclude": True}          # seeded from layout.json's `excluded`
        assert list(data) == sorted(data) and len(text.strip().splitlines()) == len(data) + 2
        schema_path = REPO / "Schemas" / "quire.corrections-1.schema.json"
        if schema_path.exists():
            import jsonschema
            jsonschema.validate(data, json.loads(schema_path.read_text()))
        cmd = d.find_element("css selector", "#review .rv-command")
        assert cmd.is_displayed() and "--corrections" in cmd.text and str(review_out) in cmd.text
        assert "downloaded" in d.find_element("css selector", "#review .rv-status").text
    finally:
        d.quit()


def test_drag_a_corner_by_touch_at_phone_size(review_out):
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    d = _driver(1280, 800)
    try:
        phone(d)
        open_review(d, review_out, page=1)                       # sure.jpg, QUAD_A
        # fits at 390: nothing wider than the screen
        assert d.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
        assert d.execute_script("return document.querySelector('#review .rv-main').scrollWidth") <= PHONE["width"]
        h = handle_centre(d, 2)
        assert h["fw"] <= PHONE["width"], h
        scale = SRC_W / h["fw"]
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        a = ActionBuilder(d, mouse=finger)
        a.pointer_action.move_to_location(int(h["x"]), int(h["y"])).pointer_down()
        a.pointer_action.move_to_location(int(h["x"]) - 10, int(h["y"]) - 6)
        a.pointer_action.move_to_location(int(h["x"]) - 20, int(h["y"]) - 12).pointer_up()
        a.perform()
        e = wait_for(d, "window.quireViewer.state().review.entry.corners && window.quireViewer.state().review.entry", "touch drag committed")
        start = [QUAD_A[2][0] + (int(h["x"]) - h["x"]) * scale, QUAD_A[2][1] + (int(h["y"]) - h["y"]) * scale]
        assert abs(e["corners"][2][0] - (QUAD_A[2][0] - 20 * scale)) <= 2 + scale, (e, scale)
        assert abs(e["corners"][2][1] - (QUAD_A[2][1] - 12 * scale)) <= 2 + scale, (e, scale, start)
    finally:
        d.quit()


def test_corners_move_with_the_keyboard(review_out):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    d = _driver(1280, 800)
    try:
        open_review(d, review_out, page=2)
        scale = SRC_W / handle_centre(d, 0)["fw"]
        d.execute_script("document.querySelectorAll('#review .rv-handle')[0].focus()")
        key(d, Keys.TAB)                                           # Tab goes to the next corner
        assert d.execute_script("return document.activeElement.dataset.corner") == "1"
        assert "Top-right corner" in d.execute_script("return document.activeElement.getAttribute('aria-label')")
        key(d, Keys.ARROW_LEFT)
        ActionChains(d).key_down(Keys.SHIFT).send_keys(Keys.ARROW_DOWN).key_up(Keys.SHIFT).perform()
        e = review(d)["entry"]
        assert abs(e["corners"][1][0] - (QUAD_B[1][0] - scale)) < 0.02, e
        assert abs(e["corners"][1][1] - (QUAD_B[1][1] + 10 * scale)) < 0.02, e
        assert d.execute_script("return document.activeElement.dataset.corner") == "1"   # focus stays on the corner
        # focus is visible on the handle
        outline = d.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none"
        # Ctrl+Z undoes one step, Ctrl+Shift+Z redoes it
        ActionChains(d).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        assert abs(review(d)["entry"]["corners"][1][1] - QUAD_B[1][1]) < 0.02
        ActionChains(d).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
        assert abs(review(d)["entry"]["corners"][1][1] - (QUAD_B[1][1] + 10 * scale)) < 0.02
    finally:
        d.quit()


# ---- turn, split/join, exclude ----

def test_turns_split_join_and_the_split_line(review_out):
    from selenium.webdriver.common.action_chains import ActionChains
    d = _driver(1280, 800)
    try:
        open_review(d, review_out, page=1)                       # rotation 0
        click(d, "#review .rv-right")
        assert review(d)["entry"] == {"rotate": 90}
        img = d.find_element("css selector", "#review .rv-written-page img")
        assert "rotate(90deg)" in img.get_attribute("style")
        for _ in range(3):
            click(d, "#review .rv-right")
        assert review(d)["entry"] == {}                            # back at Quire's decision: no entry
        open_review(d, review_out, page=3)                       # the scan Quire turned 90
        click(d, "#review .rv-left")
        assert review(d)["entry"] == {"rotate": 0}                 # "upright as it comes": an explicit 0
        # the split spread: Join, Split again (back to Quire's), then the line dragged
        open_review(d, review_out, page=4)
        assert review(d)["split"] is True
        click(d, "#review .rv-split")
        assert review(d)["entry"] == {"split": False} and review(d)["split"] is False
        assert not d.find_element("css selector", "#review .rv-split-handle").is_displayed()
        click(d, "#review .rv-split")
        assert review(d)["entry"] == {}
        hs = d.find_element("css selector", "#review .rv-split-handle")
        fw = handle_centre(d, 0)["fw"]
        spread_w = (SPREAD_R[1][0] - SPREAD_L[0][0]) / (SRC_W / fw)        # on screen, top edge
        ActionChains(d).move_to_element(hs).click_and_hold().move_by_offset(5, 0).move_by_offset(int(0.1 * spread_w) - 5, 0).release().perform()
        e = wait_for(d, "typeof window.quireViewer.state().review.entry.split === 'number' && window.quireViewer.state().review.entry", "split line")
        assert abs(e["split"] - 0.6) < 0.02, e
        # a plain page can be split: the line starts in the middle
        open_review(d, review_out, page=6)
        click(d, "#review .rv-split")
        assert review(d)["entry"] == {"split": True}
    finally:
        d.quit()


def test_exclude_survives_a_reload_and_undo_brings_it_back(review_out):
    d = _driver(1280, 800)
    try:
        open_review(d, review_out, page=1)
        click(d, "#review .rv-exclude")
        assert review(d)["entry"] == {"exclude": True}
        assert "Excluded" in d.find_element("css selector", "#review .rv-status").text
        d.refresh()
        r = open_review(d, review_out, url=d.current_url)
        assert r["entry"] == {"exclude": True} and r["key"] == "in/sure.jpg"
        # the reading views leave it out too
        d.execute_script("window.quireViewer.setLayout('pager')")
        assert d.execute_script("return window.quireViewer.state().count") == 5
        d.execute_script("window.quireViewer.setLayout('review')")
        click(d, "#review .rv-undo")
        assert review(d)["entry"] == {}
        click(d, "#review .rv-redo")
        assert review(d)["entry"] == {"exclude": True}
        click(d, "#review .rv-undo")
        d.refresh()
        open_review(d, review_out, url=d.current_url)
        d.execute_script("window.quireViewer.setLayout('pager')")
        assert d.execute_script("return window.quireViewer.state().count") == 6
        # the source Quire already left out can be included again
        open_review(d, review_out)
        d.execute_script("window.quireViewer.review().select('in/gone.jpg')")
        click(d, "#review .rv-exclude")
        assert "in/gone.jpg" not in json.loads(review(d)["text"])
    finally:
        d.quit()


def test_delete_from_view_is_an_exclude_correction(review_out):
    d = _driver(1280, 800)
    try:
        d.get((review_out / "index.html").as_uri() + "#page=4")
        wait_for(d, "window.quireViewer && window.quireViewer.state().page === 4", "viewer on page 4")
        d.find_element("id", "delete").click()
        # both parts of the split source go (exclude names the source page)
        s = wait_for(d, "!window.quireViewer.state().animating && window.quireViewer.state()", "deleted")
        assert s["count"] == 4 and s["hidden"] == 2, s
        d.execute_script("window.quireViewer.setLayout('review')")
        assert json.loads(review(d)["text"])["in/book.jpg"] == {"exclude": True}
        d.execute_script("window.quireViewer.setLayout('pager')")
        d.find_element("id", "undo").click()
        assert d.execute_script("return window.quireViewer.state().count") == 6
    finally:
        d.quit()


# ---- the served save (a stand-in for `quire view --serve` answering as the contract says) ----

class FakeServe:
    """Serves OUT with a token in index.html; POST /api/corrections answers as the contract says
    and, on success, rewrites layout.json and one page's preview (as a reprocess would)."""

    def __init__(self, out, token="ab" * 16):
        self.out, self.token, self.posts = out, token, []
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                rel = self.path.split("?")[0].lstrip("/") or "index.html"
                f = outer.out / rel
                if not f.is_file():
                    self.send_error(404)
                    return
                body = f.read_bytes()
                if rel == "index.html":
                    body = body.replace(b"<head>", b'<head>\n<meta name="quire-token" content="' + outer.token.encode() + b'">', 1)
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "max-age=3600")       # the viewer must bust it itself
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                outer.posts.append((self.path, dict(self.headers), body))
                if self.headers.get("X-Quire-Token") != outer.token:
                    return self.answer(403, {"error": "wrong token"})
                data = json.loads(body)
                if "in/bad.jpg" in data:
                    return self.answer(400, {"error": "corrections.json: in/bad.jpg: rotate must be 0, 90, 180 or 270"})
                (outer.out / "corrections.json").write_bytes(body)
                layout = json.loads((outer.out / "layout.json").read_text())
                layout["pages"] = [p for p in layout["pages"] if not data.get(p["correctionKey"], {}).get("exclude")]
                for i, p in enumerate(layout["pages"]):
                    p["index"] = i
                    p["corrected"] = data.get(p["correctionKey"])
                    if p["corrected"] is None:
                        del p["corrected"]
                _image(outer.out / layout["pages"][0]["files"]["preview"], (600, 800), (20, 200, 20))
                write_layout(outer.out, layout)
                self.answer(200, {"redone": [0], "excluded": 1, "errors": [], "layout": "layout.json"})

            def answer(self, code, obj):
                b = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(b)))
                self.end_headers()
                self.wfile.write(b)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_served_save_posts_the_file_and_reloads_the_pages(review_out):
    serve = FakeServe(review_out)
    d = _driver(1280, 800)
    try:
        open_review(d, review_out, url=serve.url + "index.html#review&page=1")
        assert review(d)["served"] is True
        btn = d.find_element("css selector", "#review .rv-save-btn")
        assert btn.text == "Save and reprocess"
        src_before = d.execute_script("return document.querySelector('#review .rv-written-page img').src")
        click(d, "#review .rv-right")                               # sure.jpg turned 90
        d.execute_script("window.quireViewer.review().select('in/unsure.jpg')")
        click(d, "#review .rv-exclude")
        btn.click()
        wait_for(d, "/Saved\\./.test(window.quireViewer.state().review.status)", "save finishes", tries=500)
        path, headers, body = serve.posts[-1]
        assert path == "/api/corrections" and headers["Content-Type"] == "application/json"
        assert headers["X-Quire-Token"] == serve.token and int(headers["Content-Length"]) == len(body)
        assert json.loads(body) == {"in/sure.jpg": {"rotate": 90}, "in/unsure.jpg": {"exclude": True}, "in/gone.jpg": {"exclude": True}}
        assert "1 page redone, 1 excluded" in review(d)["status"]
        # the new layout.json is shown: unsure.jpg has gone, the page's images are fetched again
        s = d.execute_script("return window.quireViewer.state()")
        assert s["count"] == 5 and "in/unsure.jpg" not in [it["key"] for it in s["review"]["items"]]
        d.execute_script("window.quireViewer.review().select('in/sure.jpg')")
        src_after = d.execute_script("return document.querySelector('#review .rv-written-page img').src")
        assert src_after != src_before and "?v=" in src_after
        green = d.execute_script("""var im = document.querySelector('#review .rv-written-page img');
            return new Promise(function (ok) { function go() { var c = document.createElement('canvas'); c.width = c.height = 1;
              var g = c.getContext('2d'); g.drawImage(im, im.naturalWidth / 2, im.naturalHeight / 2, 1, 1, 0, 0, 1, 1); ok(Array.from(g.getImageData(0, 0, 1, 1).data)); }
              if (im.complete && im.naturalWidth) go(); else im.onload = go; });""")
        assert green[1] > 150 and green[0] < 100, green                  # the reprocessed (green) preview, not the cached one
        # errors are shown: a refused file, and a wrong token
        d.execute_script("window.quireViewer.review().ctx.corrections.set('in/bad.jpg', {exclude: true})")
        btn.click()
        wait_for(d, "/Save refused \\(400\\)/.test(window.quireViewer.state().review.status)", "400 shown", tries=500)
        assert "rotate must be" in review(d)["status"]
        serve.token = "cd" * 16
        btn.click()
        wait_for(d, "/Save refused \\(403\\)/.test(window.quireViewer.state().review.status)", "403 shown", tries=500)
        assert btn.is_enabled()
    finally:
        d.quit()
        serve.close()


# ---- axe-core ----

@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_axe_finds_no_serious_violation_in_review(review_out, size):
    source = axe_source()
    d = _driver(1280, 800)
    try:
        d.set_script_timeout(60)
        if size == "phone":
            phone(d)
        open_review(d, review_out, page=4)
        time.sleep(0.3)
        result = run_axe(d, source)
        assert "error" not in result, result
        bad = [v for v in result["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, f"axe-core {result['version']}: {bad}"
        assert not result["violations"], f"axe-core {result['version']}: {result['violations']}"
    finally:
        d.quit()


def test_stored_fixes_are_range_checked(review_out):
    """localStorage is outside input: a damaged or hand-edited store keeps only what the
    corrections file allows (no 45 degree turn, no split past 0.8, no corner at 1e99, no crossed corners)."""
    d = _driver(1280, 800)
    try:
        open_review(d, review_out)
        where = d.execute_script("return location.pathname")
        bad = {"entries": {"in/sure.jpg": {"rotate": 45, "split": 0.95, "corners": [[1e99, 0], [1, 1], [2, 2], [3, 3]], "x": 1},
                           "in/unsure.jpg": {"rotate": 270, "split": 0.25, "exclude": "yes"},
                           "in/plain.jpg": [[1, 2], [30, 2], [30, 40], [1, 40]],
                           "in/scan.jpg": {"corners": [[0, 0], [10, 10], [10, 0], [0, 10]]}},
               "done": [{"key": 5}, None, {"key": "in/unsure.jpg", "before": None, "after": {"rotate": 270}}], "undone": "x"}
        d.execute_script("localStorage.setItem(arguments[0], arguments[1])", "quire.corrections:" + where, json.dumps(bad))
        d.refresh()
        # `undone` is not a list: the whole store is refused, layout.json's seed is used
        assert json.loads(open_review(d, review_out, url=d.current_url)["text"]) == {"in/gone.jpg": {"exclude": True}}
        bad["undone"] = []
        d.execute_script("localStorage.setItem(arguments[0], arguments[1])", "quire.corrections:" + where, json.dumps(bad))
        d.refresh()
        r = open_review(d, review_out, url=d.current_url)
        assert json.loads(r["text"]) == {"in/unsure.jpg": {"rotate": 270, "split": 0.25},
                                         "in/plain.jpg": {"corners": [[1, 2], [30, 2], [30, 40], [1, 40]]}}
        click(d, "#review .rv-undo")                                # the one well-formed step
        assert "in/unsure.jpg" not in json.loads(review(d)["text"])
    finally:
        d.quit()
