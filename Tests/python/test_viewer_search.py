"""The viewer's search box (issue 37), in headless Chromium, on pages with real printed words
(rendered with Pillow here, so nothing outside the repo is needed) processed with `--ocr`: the
count equals the word's occurrences in the hOCR, the page jumps and the address follows, every
highlight lies within 2 CSS px of its hOCR box mapped through the image on screen at fit, at 2x
zoom and panned, keyboard only; the phone header; a batch without text; served over HTTP; and
axe-core with the search open."""
import json
import re
import shutil
import subprocess
import time
import unicodedata
from html import unescape
from pathlib import Path

import pytest

from conftest import HANG_GUARD_SECONDS, which_or_skip
from conftest import chromium as _driver
from test_viewer import open_viewer
from test_viewer_reading import PHONE, axe_source, key, phone, run_axe, wait_for

# The word searched: on page 1 twice (once capitalised, once with a comma), not on page 2, once on page 3.
WORD = "lantern"
PAGES = [
    ["The Lantern Society met at dusk.", "Every member carried a lantern,", "and the old harbour was bright."],
    ["Nothing on this page is searched.", "Only ships, ropes and the tide", "fill these quiet lines of text."],
    ["At midnight the keeper lit one", "more lantern on the far pier", "and wrote the hour in his book."],
]
TOLERANCE = 2.0  # CSS px: the bound for a highlight against its hOCR box
WORD_SPAN = re.compile(r"<span class='ocrx_word'[^>]*title='bbox (\d+) (\d+) (\d+) (\d+)[^']*'[^>]*>(.*?)</span>", re.S)
PAGE_BOX = re.compile(r"class='ocr_page'[^>]*title='[^']*bbox 0 0 (\d+) (\d+)")


def fold(word):
    """The viewer's comparison (Viewer/search.js `fold`), in Python."""
    s = "".join(c for c in unicodedata.normalize("NFKD", word) if not "\u0300" <= c <= "\u036f").lower()
    keep = lambda c: c.isalnum() or unicodedata.category(c).startswith("M")  # noqa: E731
    while s and not keep(s[0]):
        s = s[1:]
    while s and not keep(s[-1]):
        s = s[:-1]
    return s


def hocr_words(path):
    """[(text, (x0, y0, x1, y1))] in reading order, and the page's size, from an hOCR file."""
    text = path.read_text(encoding="utf-8")
    size = tuple(int(v) for v in PAGE_BOX.search(text).groups())
    words = [(unescape(re.sub(r"<[^>]+>", "", m.group(5))), tuple(int(m.group(i)) for i in range(1, 5)))
             for m in WORD_SPAN.finditer(text)]
    return words, size


def render_page(lines, path):
    Image = pytest.importorskip("PIL.Image")
    from PIL import ImageDraw, ImageFont
    font_file = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    font = ImageFont.truetype(str(font_file), 40) if font_file.exists() else ImageFont.load_default(size=40)
    page = Image.new("RGB", (1240, 1754), "white")  # A4 at 150 dpi
    draw = ImageDraw.Draw(page)
    for n, line in enumerate(lines):
        draw.text((120, 200 + 90 * n), line, fill="black", font=font)
    page.save(path, dpi=(150, 150))


@pytest.fixture(scope="module")
def search_out(quire_bin, tmp_path_factory):
    which_or_skip("tesseract", "tesseract-ocr")
    langs = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True).stdout.split()
    if "eng" not in langs:
        pytest.skip("Tesseract's English model is not installed (Debian package tesseract-ocr-eng)")
    src = tmp_path_factory.mktemp("search-in")
    for n, lines in enumerate(PAGES):
        render_page(lines, src / f"p{n + 1}.png")
    out = tmp_path_factory.mktemp("search") / "out"
    run = subprocess.run([quire_bin, "process", str(src), "-o", str(out), "--ocr", "-q", "--page-timeout", "0"],  # an input: no wall-clock limit (conftest)
                         capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert run.returncode == 0, run.stderr
    assert (out / "text" / "search.js").exists()
    return out


def expected_hits(out, word):
    """[(batch index, [boxes of the hit's words], page size)] in batch order, from the hOCR files."""
    layout = json.loads((out / "layout.json").read_text())
    hits = []
    for page in sorted(layout["pages"], key=lambda p: p["index"]):
        words, size = hocr_words(out / page["text"]["hocr"])
        hits += [(page["index"], box, size) for text, box in words if fold(text) == fold(word)]
    return hits


def rect(d, selector):
    return d.execute_script("var e = document.querySelector(arguments[0]); if (!e) return null;"
                            " var r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", selector)


def check_box(d, image_selector, hit_selector, box, size, what):
    """The highlight's rectangle against the hOCR box mapped through the image drawn on screen."""
    img, got = rect(d, image_selector), rect(d, hit_selector)
    assert img and got, (what, img, got)
    sx, sy = img[2] / size[0], img[3] / size[1]
    want = [img[0] + box[0] * sx, img[1] + box[1] * sy, (box[2] - box[0]) * sx, (box[3] - box[1]) * sy]
    for a, b, edge in zip(got, want, ["left", "top", "width", "height"]):
        assert abs(a - b) <= TOLERANCE, f"{what}: {edge} {a:.2f} vs hOCR {b:.2f} ({got} vs {want})"


def search_state(d):
    return d.execute_script("return window.quireViewer.search().state()")


def active_is(d, element_id):
    return d.execute_script("return document.activeElement && document.activeElement.id") == element_id


def test_hits_pages_and_boxes_at_fit_and_zoom(search_out):
    hits = expected_hits(search_out, WORD)
    assert len(hits) >= 2 and len({h[0] for h in hits}) >= 2, f"Tesseract read too few '{WORD}': {hits}"
    d = _driver(1280, 800)
    try:
        open_viewer(d, search_out)
        # keyboard only: "/" focuses the field, the word and Enter search
        key(d, "/")
        assert active_is(d, "search-q")
        key(d, WORD.upper() + "\ue007")
        s = wait_for(d, "window.quireViewer.search().state().count > 0 && window.quireViewer.search().state()", "hits")
        assert s["count"] == len(hits), (s, hits)
        assert s["loadMs"] is not None and s["loadMs"] < 10000
        message = d.find_element("id", "search-count").text
        assert message == f"1 of {len(hits)}, page {hits[0][0] + 1}"
        assert d.find_element("id", "search-count").get_attribute("aria-live") == "polite"
        # each hit in turn: the page jumps, the address follows, the current box lies on its word
        for n, (index, box, size) in enumerate(hits):
            s = search_state(d)
            assert s["current"] == n and s["page"] == index and s["boxes"] == [list(box)], (n, s)
            v = wait_for(d, "!window.quireViewer.state().animating && window.quireViewer.state()", "rest")
            assert v["page"] == index + 1
            wait_for(d, f"location.hash === '#page={index + 1}'", "the address follows the hit")
            cell = f"#pager .cell[data-index='{v['active']}']"
            check_box(d, cell + " .mask > img", cell + " .hit.current", box, size, f"hit {n} at fit")
            on_page = sum(1 for h in hits if h[0] == index)
            assert d.execute_script("return document.querySelectorAll(arguments[0]).length", cell + " .hit") == on_page
            assert active_is(d, "search-q")
            key(d, "\ue007")                                         # Enter: the next hit
        assert search_state(d)["current"] == 0                       # wrapped round
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        ActionChains(d).key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT).perform()  # Shift+Enter: back to the last
        assert search_state(d)["current"] == len(hits) - 1
        index, box, size = hits[-1]
        # Tab to the Zoom button, Enter: the reader shows the same hit over the page at every zoom
        for _ in range(8):
            if active_is(d, "zoom"):
                break
            key(d, "\ue004")
        assert active_is(d, "zoom")
        key(d, "\ue007")
        r = wait_for(d, "window.quireViewer.state().reader.open && window.quireViewer.state().reader", "reader opens")
        assert r["index"] == wait_for(d, "window.quireViewer.state()", "state")["active"]
        check_box(d, "#reader .reader-canvas", "#reader .hit.current", box, size, "reader at fit")
        fit = r["scale"]
        key(d, "++")
        r = wait_for(d, "window.quireViewer.state().reader", "reader")
        assert abs(r["scale"] - 2 * fit) < 1e-6, r
        check_box(d, "#reader .reader-canvas", "#reader .hit.current", box, size, "reader at 2x")
        view = d.find_element("css selector", "#reader .reader-view")
        ActionChains(d).move_to_element(view).click_and_hold().move_by_offset(-150, -90).release().perform()
        r2 = wait_for(d, "window.quireViewer.state().reader", "reader")
        assert (r2["x"], r2["y"]) != (r["x"], r["y"]), "the drag did not pan"
        check_box(d, "#reader .reader-canvas", "#reader .hit.current", box, size, "reader at 2x, panned")
        key(d, "\ue00c")                                              # Escape closes the reader
        wait_for(d, "!window.quireViewer.state().reader.open", "reader closes")
        # Escape in the field: the hits go
        key(d, "/")
        assert active_is(d, "search-q")
        key(d, "\ue00c")
        assert search_state(d)["count"] == 0 and d.execute_script("return document.querySelectorAll('.hit').length") == 0
        assert not active_is(d, "search-q")
    finally:
        d.quit()


def test_phrase_accents_and_no_match(search_out):
    d = _driver(1280, 800)
    try:
        open_viewer(d, search_out)
        key(d, "/")
        # two words in a row (read by Tesseract as two words on page 1), with accents and punctuation typed
        layout = json.loads((search_out / "layout.json").read_text())
        first = sorted(layout["pages"], key=lambda p: p["index"])[0]
        words, _ = hocr_words(search_out / first["text"]["hocr"])
        folded = [fold(w) for w, _ in words]
        pair = folded[1:3]
        count = 0
        for page in layout["pages"]:
            f = [fold(w) for w, _ in hocr_words(search_out / page["text"]["hocr"])[0]]
            count += sum(1 for i in range(len(f) - 1) if f[i:i + 2] == pair)
        typed = " " + pair[0].upper() + "  " + pair[1].replace("e", "é") + "! "
        key(d, typed + "\ue007")
        s = wait_for(d, "window.quireViewer.search().state().count > 0 && window.quireViewer.search().state()", "phrase")
        assert s["count"] == count and len(s["boxes"]) == 2, (typed, s)
        assert s["boxes"] == [list(words[1][1]), list(words[2][1])]
        assert d.execute_script("return document.querySelectorAll('#pager .cell .hit.current').length") == 2
        field = d.find_element("id", "search-q")
        field.clear()
        field.send_keys("zzqqxx\ue007")
        wait_for(d, "window.quireViewer.search().state().query === 'zzqqxx'", "no match")
        assert search_state(d)["count"] == 0
        assert d.find_element("id", "search-count").text.startswith("No match")
        assert d.execute_script("return document.querySelectorAll('.hit').length") == 0
    finally:
        d.quit()


def test_phone_header_opens_search_and_escape_closes(search_out):
    d = _driver(*PHONE.values())
    try:
        phone(d)
        open_viewer(d, search_out)
        bar = d.execute_script("var b = document.getElementById('bar'); return [b.scrollWidth, b.clientWidth]")
        assert bar[0] <= bar[1], f"the header overflows at 390 px: {bar}"
        assert d.find_element("id", "search-open").is_displayed() and not d.find_element("id", "search-q").is_displayed()
        d.find_element("id", "search-open").click()
        assert d.find_element("id", "search-q").is_displayed() and active_is(d, "search-q")
        assert d.find_element("id", "search-open").get_attribute("aria-expanded") == "true"
        for el in ["search-q", "search-prev", "search-next", "search-close"]:
            r = rect(d, "#" + el)
            assert r[0] >= 0 and r[0] + r[2] <= PHONE["width"] + 0.5, (el, r)
        key(d, WORD + "\ue007")
        s = wait_for(d, "window.quireViewer.search().state().count > 0 && window.quireViewer.search().state()", "hits")
        assert s["count"] == len(expected_hits(search_out, WORD))
        key(d, "\ue00c")
        assert not d.find_element("id", "search-q").is_displayed() and active_is(d, "search-open")
        assert search_state(d)["count"] == 0
    finally:
        d.quit()


def test_a_batch_without_text_says_so(search_out, tmp_path):
    """The same pages with layout.js stripped of `text` (as a batch processed without --ocr)."""
    layout = json.loads((search_out / "layout.json").read_text())
    for page in layout["pages"]:
        page.pop("text", None)
    plain = tmp_path / "plain"
    plain.mkdir()
    for name in ["index.html", "quire-viewer", "pages", "previews", "thumbs"]:
        (plain / name).symlink_to(search_out / name)
    (plain / "layout.js").write_text("window.QUIRE_LAYOUT = " + json.dumps(layout) + ";\n")
    d = _driver(1280, 800)
    try:
        open_viewer(d, plain)
        key(d, "/" + WORD + "\ue007")
        wait_for(d, "document.getElementById('search-count').textContent.length > 0", "a message")
        assert d.find_element("id", "search-count").text.startswith("No text in this batch")
        assert not search_state(d)["loaded"]
    finally:
        d.quit()


def test_served_search_and_view_rewrites_the_index(search_out, quire_bin):
    (search_out / "text" / "search.js").unlink()
    run = subprocess.run([quire_bin, "view", str(search_out)], capture_output=True, text=True)
    assert run.returncode == 0 and (search_out / "text" / "search.js").exists(), run.stderr
    server = subprocess.Popen([quire_bin, "view", str(search_out), "--serve"], stdout=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving" not in line:
            line = server.stdout.readline()
            assert line, "server exited"
        url = line.split(" at ")[1].split(" ")[0]
        d = _driver(1280, 800)
        try:
            open_viewer(d, search_out, url=url)
            key(d, "/" + WORD + "\ue007")
            s = wait_for(d, "window.quireViewer.search().state().count > 0 && window.quireViewer.search().state()", "hits")
            assert s["count"] == len(expected_hits(search_out, WORD))
        finally:
            d.quit()
    finally:
        server.terminate()
        server.wait()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_axe_with_the_search_open(search_out, size):
    source = axe_source()
    d = _driver(1280, 800)
    try:
        d.set_script_timeout(60)
        if size == "phone":
            phone(d)
        open_viewer(d, search_out)
        key(d, "/" + WORD + "\ue007")
        wait_for(d, "window.quireViewer.search().state().count > 0", "hits")
        time.sleep(0.3)
        result = run_axe(d, source)
        assert "error" not in result, result
        bad = [v for v in result["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, f"axe-core {result['version']}: {bad}"
    finally:
        d.quit()
