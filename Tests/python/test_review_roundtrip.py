"""The review loop end to end (issue 33): a photo processed by `quire process`, its corner dragged in
the review mode with real pointer events, corrections.json downloaded from Chromium, the batch
rerun with `--corrections`, and the new layout.json's quad at the dragged corner (within 2 px of
source); a quarter turn swaps the page's width and height; and the same through
`quire view OUT --serve` ("Save and reprocess"), where the page image changes."""
import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import chromium as _driver
from test_viewer_reading import wait_for
from test_viewer_review import handle_centre, open_review, review

REPO = Path(__file__).resolve().parents[2]
PHOTO = REPO / "Tests" / "Fixtures" / "generated" / "cap_000.jpg"


def needs_corrections(quire_bin):
    out = subprocess.run([quire_bin, "process", "--help"], capture_output=True, text=True).stdout
    if "--corrections" not in out:
        pytest.skip("this quire has no `process --corrections` yet (the corrections branch)")


@pytest.fixture()
def photo_batch(quire_bin, tmp_path):
    needs_corrections(quire_bin)
    if not PHOTO.exists():
        pytest.skip(f"{PHOTO} missing")
    inp, out = tmp_path / "in", tmp_path / "out"
    inp.mkdir()
    shutil.copy(PHOTO, inp / "photo.jpg")
    run = subprocess.run([quire_bin, "process", str(inp), "-o", str(out), "-q"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return inp, out


def layout(out):
    return json.loads((out / "layout.json").read_text())


def download(d, folder):
    path = folder / "corrections.json"
    if path.exists():
        path.unlink()
    d.find_element("css selector", "#review .rv-save-btn").click()
    for _ in range(200):
        if path.exists() and path.stat().st_size:
            return path
        time.sleep(0.05)
    raise AssertionError("corrections.json was not downloaded")


def drag(d, i, dx, dy):
    from selenium.webdriver.common.action_chains import ActionChains
    h = d.find_elements("css selector", "#review .rv-handle")[i]
    ActionChains(d).move_to_element(h).click_and_hold().move_by_offset(dx // 2, dy // 2) \
        .move_by_offset(dx - dx // 2, dy - dy // 2).release().perform()


def test_dragged_corner_and_turn_come_back_from_quire_process(quire_bin, photo_batch, tmp_path):
    inp, out = photo_batch
    page = layout(out)["pages"][0]
    assert page["capture"]["sourceWidth"] > 0 and page["correctionKey"] == "photo.jpg", page
    quad0 = page["quad"]
    assert quad0, "the sample photo should be straightened from a quad"
    downloads = tmp_path / "dl"
    downloads.mkdir()
    d = _driver(1280, 800)
    try:
        d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        open_review(d, out, page=1)
        fw = handle_centre(d, 0)["fw"]
        scale = page["capture"]["sourceWidth"] / fw
        dx, dy = 24, 16
        drag(d, 0, dx, dy)
        e = wait_for(d, "window.quireViewer.state().review.entry.corners && window.quireViewer.state().review.entry", "drag committed")
        want = [quad0[0][0] + dx * scale, quad0[0][1] + dy * scale]
        assert abs(e["corners"][0][0] - want[0]) <= 2 and abs(e["corners"][0][1] - want[1]) <= 2, (e, want)
        path = download(d, downloads)
        run = subprocess.run([quire_bin, "process", str(inp), "-o", str(out), "--corrections", str(path), "-q"],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        new = layout(out)["pages"][0]
        assert abs(new["quad"][0][0] - e["corners"][0][0]) <= 2 and abs(new["quad"][0][1] - e["corners"][0][1]) <= 2, (new["quad"], e)
        for a, b in zip(new["quad"][1:], quad0[1:]):
            assert abs(a[0] - b[0]) <= 2 and abs(a[1] - b[1]) <= 2
        assert new.get("corrected", {}).get("corners") == e["corners"]
        # a quarter turn: width and height swap
        d.refresh()
        open_review(d, out, page=1)
        d.find_element("css selector", "#review .rv-right").click()
        assert review(d)["entry"]["rotate"] == (page["rotation"] + 90) % 360
        path = download(d, downloads)
        run = subprocess.run([quire_bin, "process", str(inp), "-o", str(out), "--corrections", str(path), "-q"],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        turned = layout(out)["pages"][0]
        assert abs(turned["width"] - new["height"]) <= 2 and abs(turned["height"] - new["width"]) <= 2, (new, turned)
    finally:
        d.quit()


def test_save_and_reprocess_through_the_server(quire_bin, photo_batch):
    inp, out = photo_batch
    before = (out / layout(out)["pages"][0]["files"]["preview"]).read_bytes()
    server = subprocess.Popen([quire_bin, "view", str(out), "--serve"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    d = None
    try:
        url = None
        deadline = time.time() + 30
        while time.time() < deadline and url is None:
            line = server.stdout.readline()
            m = re.search(r"(http://127\.0\.0\.1:\d+/)", line or "")
            if m:
                url = m.group(1)
        assert url, "the server did not say where it serves"
        import urllib.request
        if b'name="quire-token"' not in urllib.request.urlopen(url + "index.html", timeout=10).read():
            pytest.skip("this quire view --serve has no corrections endpoint yet (no quire-token in the page)")
        d = _driver(1280, 800)
        open_review(d, out, url=url + "index.html#review&page=1")
        assert review(d)["served"] is True
        d.find_element("css selector", "#review .rv-right").click()
        src0 = d.execute_script("return document.querySelector('#review .rv-written-page img').src")
        d.find_element("css selector", "#review .rv-save-btn").click()
        wait_for(d, "/Saved\\.|refused|Error|cannot/.test(window.quireViewer.state().review.status)", "save finishes", tries=6000)
        status = review(d)["status"]
        assert status.startswith("Saved."), status
        saved = json.loads((out / "corrections.json").read_text())
        assert saved["photo.jpg"]["rotate"] == review(d)["entry"]["rotate"]
        after = (out / layout(out)["pages"][0]["files"]["preview"]).read_bytes()
        assert after != before
        src1 = d.execute_script("return document.querySelector('#review .rv-written-page img').src")
        assert src1 != src0 and "?v=" in src1
    finally:
        if d:
            d.quit()
        server.terminate()
        server.wait(timeout=10)
