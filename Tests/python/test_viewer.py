"""The web viewer (OUT/index.html) in headless Chromium: its element rectangles must equal
`quire layout` for the same request within 0.5 px, its screenshots must match `quire render`,
and swipe, tap, keyboard, resize and delete must leave the right page active.

The OUT used here is the bundled samples processed three times over (21 pages, copies in a
temporary folder); a 5,000-page layout.json is made from it by repeating its pages."""
import json
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import SAMPLES, chromium

TOL = 0.5


@pytest.fixture(scope="module")
def browser():
    d = chromium()
    yield d
    d.quit()


# A hang guard for the viewer's start, not a measurement.
VIEWER_START_SECONDS = 60


def open_viewer(d, out, url=None):
    """Loads the viewer and waits until it has drawn its pages. Served without layout.js it
    fetches layout.json first, and until then window.quireViewer exists but state() throws:
    that counts as not started yet (a loaded machine made the fetch outlast the first poll)."""
    d.get(url or (out / "index.html").as_uri())
    deadline = time.monotonic() + VIEWER_START_SECONDS
    while time.monotonic() < deadline:
        if d.execute_script("try { return !!(window.quireViewer && window.quireViewer.state().count); }"
                            " catch (e) { return false; }"):
            return d.execute_script("return window.quireViewer.state()")
        time.sleep(0.05)
    raise AssertionError("viewer did not start: " + str(d.get_log("browser")))


def wait_idle(d):
    for _ in range(200):
        if not d.execute_script("return window.quireViewer.state().animating"):
            return d.execute_script("return window.quireViewer.state()")
        time.sleep(0.02)
    raise AssertionError("animation did not end")


def wait_until(d, script, *args, what, seconds=15):
    """Polls a script's condition (a hang guard of `seconds`, not a measurement) instead of
    sleeping a time that a busy machine may not honour."""
    deadline = time.monotonic() + seconds
    while not d.execute_script("return !!(" + script + ")", *args):
        assert time.monotonic() < deadline, f"{what}: {d.execute_script('return window.quireViewer.state()')}"
        time.sleep(0.02)


def near(a, b, what):
    assert abs(a - b) <= TOL, f"{what}: viewer {a} vs engine {b}"


def check_pager(rects, answer):
    ox = answer["offset"]["x"]
    by_index = {r["index"]: r for r in rects["pager"]}
    engine_items = [i for i in answer["items"] if i["frame"]["width"] > 0]
    assert engine_items, answer
    for item in engine_items:
        f = item["frame"]
        r = by_index.get(item["index"])
        if r is None:  # the engine returns a closed-interval neighbour touching the edge
            assert f["x"] - ox >= rects["pagerBox"]["width"] - TOL or f["x"] + f["width"] - ox <= TOL
            continue
        near(r["x"], f["x"] - ox, f"pager {item['index']} x")
        near(r["y"], f["y"], f"pager {item['index']} y")
        near(r["width"], f["width"], f"pager {item['index']} width")
        near(r["height"], f["height"], f"pager {item['index']} height")
        m = item["mask"]
        for k in ["x", "y", "width", "height"]:
            near(r["mask"][k], m[k], f"pager {item['index']} mask {k}")
        near(r["image"]["x"] - r["mask"]["x"], item["imageTranslation"], f"pager {item['index']} image translation")


def check_strip(rects, answer, width):
    ox = answer["offset"]["x"]
    by_index = {r["index"]: r for r in rects["strip"]}
    seen = 0
    for item in answer["items"]:
        f = item["frame"]
        if f["x"] - ox > width - TOL or f["x"] + f["width"] - ox < TOL:
            continue  # touches the edge only
        r = by_index.get(item["index"])
        assert r is not None, f"strip item {item['index']} missing from the page"
        seen += 1
        near(r["x"], f["x"] - ox, f"strip {item['index']} x")
        near(r["y"], f["y"], f"strip {item['index']} y")
        near(r["width"], f["width"], f"strip {item['index']} width")
        near(r["height"], f["height"], f"strip {item['index']} height")
        assert abs(r["alpha"] - item["alpha"]) < 1e-3
    assert seen >= 3


PAGER_OFFSETS = [0, 150, 0.5, 2.5, 3, 7.9]          # < 1: fractions of a page width; else whole pages


@pytest.mark.parametrize("offset", PAGER_OFFSETS)
def test_pager_geometry_equals_engine(browser, viewer_out, engine, offset):
    state = open_viewer(browser, viewer_out)
    size = state["pagerSize"]
    ox = offset if offset >= 10 else offset * size["width"]
    browser.execute_script("window.quireViewer.setState(arguments[0])", {"pagerOffset": ox})
    rects = browser.execute_script("return window.quireViewer.rects()")
    answer = engine.ask({"layout": "pager", "pagesFrom": str(viewer_out / "layout.json"),
                         "viewport": size, "offset": {"x": ox, "y": 0}})
    check_pager(rects, answer)


STRIP_STATES = [
    ({"index": 3}, {}),
    ({"index": 3, "plus": 17.3}, {}),                                   # mid-swipe
    ({"index": 5, "plus": -9}, {"expandingRate": 0.4}),                 # expanding rate
    ({"index": 0, "plus": -40}, {"expandingRate": 0}),
    ({"index": 2}, {"animation": {"kind": "move", "index": 7, "progress": 0.35}}),
    ({"index": 9}, {"animation": {"kind": "move", "index": 4, "progress": 0.8}}),
    ({"index": 6, "plus": 11}, {"animation": {"kind": "scrollBegin", "progress": 0.5}}),
    ({"index": 6}, {"expandingRate": 0.2, "animation": {"kind": "scrollEnd", "progress": 0.3}}),
    ({"index": 4}, {"animation": {"kind": "delete", "index": 4, "phase": "collapse", "progress": 0.6}}),
    ({"index": 4}, {"animation": {"kind": "delete", "index": 4, "phase": "delete", "progress": 0.5}}),
    ({"index": 20}, {"animation": {"kind": "delete", "index": 20, "phase": "delete", "progress": 0.7}}),
]


@pytest.mark.parametrize("where,extra", STRIP_STATES)
def test_strip_geometry_equals_engine(browser, viewer_out, engine, where, extra):
    state = open_viewer(browser, viewer_out)
    size = state["stripSize"]
    rest = engine.ask({"layout": "strip", "pagesFrom": str(viewer_out / "layout.json"), "viewport": size,
                       "offset": {"x": 0, "y": 0}})
    pitch = 66 * 0.5 + 4
    x = where["index"] * pitch - (size["width"] - pitch) / 2 + where.get("plus", 0)
    request = {"layout": "strip", "pagesFrom": str(viewer_out / "layout.json"), "viewport": size, "offset": {"x": x, "y": 0}}
    parameters = {}
    if "expandingRate" in extra:
        parameters["expandingRate"] = extra["expandingRate"]
    if parameters:
        request["parameters"] = parameters
    if "animation" in extra:
        request["animation"] = extra["animation"]
    answer = engine.ask(request)
    assert rest["count"] == 21
    hook = {"stripOffset": x, **({"expandingRate": extra["expandingRate"]} if "expandingRate" in extra else {})}
    if "animation" in extra:
        hook["animation"] = extra["animation"]
    browser.execute_script("window.quireViewer.setState(arguments[0])", hook)
    rects = browser.execute_script("return window.quireViewer.rects()")
    check_strip(rects, answer, size["width"])


def alt_box(d):
    return d.execute_script("var r = document.getElementById('alt').getBoundingClientRect(); return {width: r.width, height: r.height}")


@pytest.mark.parametrize("layout,offset", [("halves", -100), ("halves", 333), ("featured", 0), ("featured", 250),
                                           ("featured", 1000), ("carousel", None), ("carousel", 500)])
def test_other_layouts_equal_engine(browser, viewer_out, engine, layout, offset):
    open_viewer(browser, viewer_out)
    browser.execute_script("window.quireViewer.setLayout(arguments[0])", layout)
    box = alt_box(browser)
    hook = {"layout": layout}
    if layout == "carousel":
        hook["centerIndex"] = 3
    if offset is not None:
        hook["altOffset"] = offset
    browser.execute_script("window.quireViewer.setState(arguments[0])", hook)
    rects = browser.execute_script("return window.quireViewer.rects()")
    pages = str(viewer_out / "layout.json")
    if layout == "halves":
        # the spread: one drum row per two facing pages (21 pages: 11 rows), rows as tall as the
        # viewer chose for this screen (pizzaSize)
        w = (box["width"] - 1) / 2
        row = browser.execute_script("return window.quireViewer.state().spreadRow")
        assert row >= 300
        for side, orientation in enumerate(["left", "right"]):
            answer = engine.ask({"layout": "halves", "count": 11, "viewport": {"width": w, "height": box["height"]},
                                 "offset": {"x": 0, "y": offset}, "parameters": {"orientation": orientation, "pizzaSize": row}})
            drawn = {r["index"]: r for r in rects["halves"][side]}
            cells = [i for i in answer["items"] if i["role"] == "cell"]
            assert cells and len(cells) == len(drawn), (cells, drawn)
            for item in cells:
                f, r = item["frame"], drawn[item["index"]]
                for k, v in [("x", f["x"]), ("y", f["y"] - offset), ("width", f["width"]), ("height", f["height"])]:
                    near(r[k], v, f"halves {orientation} {item['index']} {k}")
        return
    request = {"layout": layout, "pagesFrom": pages, "viewport": box}
    if layout == "carousel":
        request["parameters"] = {"centerIndex": 3}
        request["offset"] = {"x": offset if offset is not None else box["width"] - 32 - 8, "y": 0}
    else:
        request["offset"] = {"x": 0, "y": offset}
    answer = engine.ask(request)
    o = answer["offset"]
    drawn = sorted(rects["items"], key=lambda r: (r["x"], r["y"]))
    items = sorted(answer["items"], key=lambda i: (i["frame"]["x"], i["frame"]["y"]))
    assert len(items) == len(drawn) and items, (answer, rects)
    for item, r in zip(items, drawn):
        f = item["frame"]
        assert r["index"] == item["index"]
        for k, v in [("x", f["x"] - o["x"]), ("y", f["y"] - o["y"]), ("width", f["width"]), ("height", f["height"])]:
            near(r[k], v, f"{layout} {item['index']} {k}")


def wait_images(d):
    for _ in range(100):
        if d.execute_script("return Array.from(document.images).every(function (i) { return !i.src || i.complete; })"):
            return
        time.sleep(0.05)


@pytest.mark.parametrize("fraction", [0, 1.3])
def test_pager_screenshot_matches_quire_render(browser, viewer_out, quire_bin, tmp_path, fraction):
    state = open_viewer(browser, viewer_out)
    size = state["pagerSize"]
    ox = fraction * size["width"]
    browser.execute_script("window.quireViewer.setState(arguments[0])", {"pagerOffset": ox})
    wait_images(browser)
    time.sleep(0.2)
    shot = tmp_path / "viewer.png"
    browser.save_screenshot(str(shot))
    box = browser.execute_script("return window.quireViewer.rects().pagerBox")
    page = np.asarray(Image.open(shot).convert("RGB"), dtype=np.float64)
    page = page[int(box["y"]):int(box["y"]) + int(size["height"]), 0:int(size["width"])]
    render = tmp_path / "render.png"
    run = subprocess.run([quire_bin, "render", str(viewer_out), "--layout", "pager", "--offset", f"{ox}",
                          "--viewport", f"{int(size['width'])}x{int(size['height'])}", "--background", "black",
                          "-o", str(render)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    ref = np.asarray(Image.open(render).convert("RGB"), dtype=np.float64)
    assert ref.shape == page.shape, (ref.shape, page.shape)
    diff = np.abs(ref - page)
    Image.fromarray(np.concatenate([page, ref], axis=1).astype(np.uint8)).save(tmp_path / "side_by_side.png")
    # Different resamplers (the browser's vs libvips's) and JPEG previews: small mean, few outliers.
    assert diff.mean() < 6, f"mean difference {diff.mean():.2f} (see {tmp_path / 'side_by_side.png'})"
    assert (diff.max(axis=2) > 64).mean() < 0.01


def drag(d, element_id, dx, steps=8, pause=0.02):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.actions import interaction
    el = d.find_element("id", element_id)
    # start on the side the finger moves away from, so the whole swipe stays in the window
    r = d.execute_script("var b = arguments[0].getBoundingClientRect(); return [b.left + b.width * (arguments[1] < 0 ? 0.85 : 0.15), b.top + b.height / 2]", el, dx)
    actions = ActionBuilder(d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(int(r[0]), int(r[1])).pointer_down()
    for k in range(1, steps + 1):
        actions.pointer_action.move_to_location(int(r[0] + dx * k / steps), int(r[1])).pause(pause)
    actions.pointer_action.pause(0.3).pointer_up()   # slow release: no flick
    actions.perform()


def assert_rest(d, engine, out, active, removed=None):
    """The viewer rests on `active`: both offsets and every drawn rect as the engine says
    (over the pages of layout.json, without page `removed` when one was deleted from the view)."""
    state = wait_idle(d)
    if removed is None:
        items = {"pagesFrom": str(out / "layout.json")}
    else:
        ratios = [p["aspectRatio"] for p in json.loads((out / "layout.json").read_text())["pages"]]
        del ratios[removed]
        items = {"aspectRatios": ratios}
    assert state["active"] == active, state
    near(state["pagerOffset"], active * state["pagerSize"]["width"], "pager offset")
    answer = engine.ask({"layout": "strip", **items, "viewport": state["stripSize"],
                         "offset": {"x": 0, "y": 0}, "snap": {"proposedOffset": {"x": state["stripOffset"], "y": 0}}})
    near(state["stripOffset"], answer["snap"]["targetOffset"]["x"], "strip offset snapped")
    assert answer["snap"]["index"] == active
    check_strip(d.execute_script("return window.quireViewer.rects()"),
                engine.ask({"layout": "strip", **items, "viewport": state["stripSize"],
                            "offset": {"x": state["stripOffset"], "y": 0}}), state["stripSize"]["width"])
    check_pager(d.execute_script("return window.quireViewer.rects()"),
                engine.ask({"layout": "pager", **items, "viewport": state["pagerSize"],
                            "offset": {"x": state["pagerOffset"], "y": 0}}))
    return state


def test_interactions_swipe_tap_keyboard_resize_delete(viewer_out, engine):
    d = chromium()
    try:
        state = open_viewer(d, viewer_out)
        w = state["pagerSize"]["width"]
        for _ in range(3):                       # swipe left three times: page 3 (0-based)
            drag(d, "pager", -0.6 * w)
            wait_idle(d)
        assert_rest(d, engine, viewer_out, 3)
        # tap thumbnail 7: the move animation, then rest on it
        thumb = d.find_element("css selector", '.thumb[data-index="7"]')
        thumb.click()
        assert_rest(d, engine, viewer_out, 7)
        # keyboard End, then Home, then a typed page number
        from selenium.webdriver.common.keys import Keys
        body = d.find_element("tag name", "body")
        body.send_keys(Keys.END)
        assert_rest(d, engine, viewer_out, 20)
        body.send_keys("5")
        body.send_keys(Keys.ENTER)
        assert_rest(d, engine, viewer_out, 4)
        # resize: the active page stays
        d.set_window_size(640, 700)
        wait_until(d, "window.quireViewer.state().pagerSize.width !== arguments[0]", w, what="the viewer follows the resize")
        state = assert_rest(d, engine, viewer_out, 4)
        assert state["pagerSize"]["width"] != w
        # delete page 4 from the view: 20 pages, page 5 slides into place and is active
        names = d.execute_script("return document.getElementById('source').textContent")
        d.find_element("id", "delete").click()
        wait_until(d, "window.quireViewer.state().count === 20", what="the page leaves the view")
        state = assert_rest(d, engine, viewer_out, 4, removed=4)
        assert state["count"] == 20
        assert d.execute_script("return document.getElementById('source').textContent") != names
        assert d.execute_script("return document.getElementById('pageno').textContent") == "5 / 20"
    finally:
        d.quit()


def test_five_thousand_pages_open_at_once(viewer_out, tmp_path):
    layout = json.loads((viewer_out / "layout.json").read_text())
    pages = layout["pages"]
    layout["pages"] = [dict(pages[i % len(pages)], index=i) for i in range(5000)]
    big = tmp_path / "big"
    big.mkdir()
    for name in ["index.html", "quire-viewer", "pages", "previews", "thumbs"]:
        (big / name).symlink_to(viewer_out / name)
    (big / "layout.js").write_text("window.QUIRE_LAYOUT = " + json.dumps(layout) + ";\n")
    d = chromium()
    try:
        state = open_viewer(d, big)
        assert state["count"] == 5000
        assert state["domElements"] < 60, state       # only the visible items are in the DOM
        d.execute_script("window.quireViewer.moveTo(4321)")
        state = wait_idle(d)
        assert state["active"] == 4321 and state["domElements"] < 60
        thumbs = d.execute_script("return document.querySelectorAll('#strip img').length")
        previews = d.execute_script("return document.querySelectorAll('#pager img').length")
        assert thumbs < 40 and previews <= 3   # the active page and its two edge-touching neighbours
    finally:
        d.quit()


def test_served_and_view_command(viewer_copy, quire_bin, tmp_path):
    """`quire view OUT` rewrites the viewer; `--serve` serves it over HTTP (fetch works there too).
    On a copy of the shared OUT: this test deletes and moves its files."""
    viewer_out = viewer_copy
    (viewer_out / "index.html").unlink()
    run = subprocess.run([quire_bin, "view", str(viewer_out)], capture_output=True, text=True)
    assert run.returncode == 0 and (viewer_out / "index.html").exists(), run.stderr
    server = subprocess.Popen([quire_bin, "view", str(viewer_out), "--serve"], stdout=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving" not in line:
            line = server.stdout.readline()
            assert line, "server exited"
        url = line.split(" at ")[1].split(" ")[0]
        assert url.startswith("http://127.0.0.1:")
        d = chromium()
        try:
            state = open_viewer(d, viewer_out, url=url)
            assert state["count"] == 21
            import urllib.request
            with urllib.request.urlopen(url + "layout.json") as r:
                assert json.loads(r.read())["pages"]
            with pytest.raises(Exception):
                urllib.request.urlopen(url + "../etc/passwd")
            # served without layout.js, the viewer fetches layout.json
            (viewer_out / "layout.js").rename(tmp_path / "layout.js")
            try:
                assert open_viewer(d, viewer_out, url=url)["count"] == 21
            finally:
                (tmp_path / "layout.js").rename(viewer_out / "layout.js")
        finally:
            d.quit()
    finally:
        server.terminate()
        server.wait()


def test_process_viewer_none(quire_bin, tmp_path):
    src = sorted(SAMPLES.glob("*.jpg"))[0]
    out = tmp_path / "out"
    run = subprocess.run([quire_bin, "process", str(src), "-o", str(out), "-q", "--viewer", "none"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (out / "layout.json").exists() and not (out / "index.html").exists() and not (out / "layout.js").exists()


@pytest.mark.parametrize("index", [3, 11])
def test_strip_screenshot_matches_quire_render(browser, viewer_out, quire_bin, tmp_path, index):
    state = open_viewer(browser, viewer_out)
    size = state["stripSize"]
    pitch = size["height"] * 0.5 + 4
    browser.execute_script("window.quireViewer.setState(arguments[0])",
                           {"stripOffset": index * pitch - (size["width"] - pitch) / 2})
    wait_images(browser)
    time.sleep(0.2)
    shot = tmp_path / "viewer.png"
    browser.save_screenshot(str(shot))
    box = browser.execute_script("return window.quireViewer.rects().stripBox")
    page = np.asarray(Image.open(shot).convert("RGB"), dtype=np.float64)
    page = page[int(box["y"]):int(box["y"]) + int(size["height"]), 0:int(size["width"])]
    render = tmp_path / "render.png"
    run = subprocess.run([quire_bin, "render", str(viewer_out), "--layout", "strip", "--index", str(index),
                          "--viewport", f"{int(size['width'])}x{int(size['height'])}", "--background", "#1c1c1c",
                          "-o", str(render)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    ref = np.asarray(Image.open(render).convert("RGB"), dtype=np.float64)
    assert ref.shape == page.shape, (ref.shape, page.shape)
    diff = np.abs(ref - page)
    Image.fromarray(np.concatenate([page, ref], axis=0).astype(np.uint8)).save(tmp_path / "stacked.png")
    # Thumbnails are mostly fine text drawn at fractional positions by two different resamplers,
    # so pixels differ a lot (mean ~15) while the layout is the same: compare 6x6 block means,
    # and the column profile (where every cell and gap is).
    h, w = (ref.shape[0] // 6) * 6, (ref.shape[1] // 6) * 6
    blocks = lambda a: a[:h, :w].reshape(h // 6, 6, w // 6, 6, 3).mean(axis=(1, 3))
    block_diff = np.abs(blocks(ref) - blocks(page)).mean()
    column_diff = np.abs(ref.mean(axis=(0, 2)) - page.mean(axis=(0, 2))).mean()
    assert block_diff < 8 and column_diff < 4, f"block {block_diff:.2f}, columns {column_diff:.2f} (see {tmp_path / 'stacked.png'})"


# viewer.js snaps the strip this long after the last wheel event (onWheel's timer).
WHEEL_STOP_MS = 150


def test_wheel_and_arrows(viewer_out, engine):
    """A wheel/trackpad scroll drives the strip (the pager follows page by page) and snaps when it stops."""
    d = chromium()
    try:
        open_viewer(d, viewer_out)
        pitch = 66 * 0.5 + 4
        # 6 x 37 wheel units = 3 thumbnails (the viewer moves half a unit per unit), 30 ms apart by
        # the page's own timers: sent one call at a time, a busy machine put more than the viewer's
        # wheel-stop delay between two of them and the strip snapped half-way (active 2, not 3).
        # The script returns after that delay has passed since the last event, so the snap has begun.
        d.execute_async_script("""var delta = arguments[0], stop = arguments[1], cb = arguments[arguments.length - 1], k = 0;
            (function next() {
              if (k++ === 6) { setTimeout(cb, stop + 50); return; }
              document.getElementById('strip').dispatchEvent(new WheelEvent('wheel', {deltaY: delta, bubbles: true, cancelable: true}));
              setTimeout(next, 30);
            })();""", pitch, WHEEL_STOP_MS)
        assert_rest(d, engine, viewer_out, 3)
        from selenium.webdriver.common.keys import Keys
        body = d.find_element("tag name", "body")
        body.send_keys(Keys.ARROW_RIGHT)
        assert_rest(d, engine, viewer_out, 4)
        body.send_keys(Keys.HOME)
        assert_rest(d, engine, viewer_out, 0)
        # double-click opens the reader on the active page (its preview at fit page); Escape closes it
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(d).double_click(d.find_element("id", "pager")).perform()
        full = d.find_element("id", "reader")
        assert full.is_displayed()
        preview0 = json.loads((viewer_out / "layout.json").read_text())["pages"][0]["files"]["preview"]
        assert d.execute_script("return document.querySelector('#reader .reader-preview').getAttribute('src')") == preview0
        d.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert not full.is_displayed()
    finally:
        d.quit()


def test_serve_takes_an_optional_port(viewer_copy, quire_bin):
    """`quire view OUT --serve PORT` listens on that port; a port without --serve is refused.
    On a copy of the shared OUT: serving rewrites its viewer."""
    viewer_out = viewer_copy
    import socket
    import urllib.request
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    refused = subprocess.run([quire_bin, "view", str(viewer_out), str(port)], capture_output=True, text=True)
    assert refused.returncode != 0 and "--serve" in refused.stderr
    server = subprocess.Popen([quire_bin, "view", str(viewer_out), "--serve", str(port)],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving" not in line:
            line = server.stdout.readline()
            assert line, "server exited"
        assert f"http://127.0.0.1:{port}/" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/layout.json") as r:
            assert json.loads(r.read())["pages"]
            # another site's scripts may not read the batch (docs/security.md); only iiif/ allows it
            assert r.headers.get("Access-Control-Allow-Origin") is None
    finally:
        server.terminate()
        server.wait()


# The gap between two DevTools calls on a busy machine (a 2-core machine shared with builds):
# the gesture tests wait this long between events, so they pass only because each event says
# when it happened (`touch(..., at=)`), never because the machine was quick.
LOADED_MACHINE_DELAY = 0.1


def touch(d, kind, points, at=None):
    """One DevTools touch event (touchStart/touchMove/touchEnd) with the given finger points;
    `at` (seconds since the epoch) is the event's own time, which the page sees as its
    timeStamp: gestures whose meaning is a speed or an interval say when each event happened,
    so a busy machine delaying the calls does not change them."""
    event = {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]}
    if at is not None:
        event["timestamp"] = at
    d.execute_cdp_cmd("Input.dispatchTouchEvent", event)


def test_pinch_opens_the_full_page_and_a_flick_moves_one_page(viewer_out, engine):
    """Two fingers spreading on the pager open the reader; a quick short swipe
    (released while moving) goes on to the next page with its momentum and snaps there."""
    d = chromium()
    try:
        open_viewer(d, viewer_out)
        r = d.execute_script("var b = document.getElementById('pager').getBoundingClientRect();"
                             "return [b.left + b.width / 2, b.top + b.height / 2]")
        cx, cy = r
        touch(d, "touchStart", [(cx - 20, cy), (cx + 20, cy)])
        for k in range(1, 6):
            touch(d, "touchMove", [(cx - 20 - 12 * k, cy), (cx + 20 + 12 * k, cy)])
            time.sleep(0.02)
        touch(d, "touchEnd", [])
        full = d.find_element("id", "reader")
        assert full.is_displayed(), "pinch did not open the reader"
        from selenium.webdriver.common.keys import Keys
        d.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert not full.is_displayed()
        assert_rest(d, engine, viewer_out, 0)
        # a flick: 60 px in 50 ms, released while moving: far less than half a page. The calls
        # go out LOADED_MACHINE_DELAY apart, as on a busy machine; the events' own times say 10 ms.
        x0, t0 = cx + 100, time.time()
        touch(d, "touchStart", [(x0, cy)], at=t0)
        for k in range(1, 6):
            time.sleep(LOADED_MACHINE_DELAY)
            touch(d, "touchMove", [(x0 - 12 * k, cy)], at=t0 + 0.01 * k)
        touch(d, "touchEnd", [], at=t0 + 0.06)
        assert_rest(d, engine, viewer_out, 1)
    finally:
        d.quit()


def test_open_viewer_waits_while_a_served_viewer_fetches_layout_json(tmp_path):
    """open_viewer's wait: served without layout.js, the viewer's state() throws until
    layout.json has arrived (slow here on purpose, as on a loaded machine); the helper waits
    for the pages instead of failing on the first look."""
    import functools
    import http.server
    import threading
    from test_viewer_review import make_out
    pytest.importorskip("PIL")
    out = make_out(tmp_path)
    (out / "layout.js").unlink()
    arrived = threading.Event()

    class SlowLayout(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            if self.path.startswith("/layout.json"):
                time.sleep(1.5)                     # held back, as a loaded machine may
                arrived.set()
            super().do_GET()

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SlowLayout, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    d = chromium()
    try:
        state = open_viewer(d, out, url=f"http://127.0.0.1:{server.server_address[1]}/")
        assert state["count"] == 6 and arrived.is_set()
    finally:
        d.quit()
        server.shutdown()
