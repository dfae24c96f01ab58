"""`quire iiif OUT --base-url URL` served by a static server on 127.0.0.1, checked as IIIF
clients see it: every tile info.json advertises exists at its size; the manifest loads in the
Presentation 3 model (iiif-prezi3) and the image service passes the IIIF image validator's
level-0 tests; a small page of our own (no OpenSeadragon) in headless Chromium shows a deep-zoom
level assembled from the tiles, and it looks like the page."""
import functools
import http.server
import json
import shutil
import sys
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import SAMPLES, chromium, run, which_or_skip

HERE = Path(__file__).resolve().parent


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(quire_bin, processed_out, tmp_path_factory):
    """A copy of the processed samples with its IIIF export, served on a free port."""
    out = tmp_path_factory.mktemp("iiif") / "scans"
    shutil.copytree(processed_out, out)
    shutil.copy(HERE / "iiif_level.html", out / "iiif_level.html")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    done = run([quire_bin, "iiif", out, "--base-url", root + "/iiif/", "--behavior", "paged"])
    assert done.returncode == 0, done.stderr
    yield out, root
    server.shutdown()


def pages_of(out: Path):
    return sorted(json.loads((out / "layout.json").read_text())["pages"], key=lambda p: p["index"])


def manifest_of(out: Path):
    return json.loads((out / "iiif" / "manifest.json").read_text())


def advertised(info):
    """Every tile path info.json advertises, with its size, by the Image API 3.0 rule."""
    w, h, spec = info["width"], info["height"], info["tiles"][0]
    t = spec["width"]
    assert spec.get("height", t) == t
    for s in spec["scaleFactors"]:
        for y in range(0, h, t * s):
            for x in range(0, w, t * s):
                rw, rh = min(t * s, w - x), min(t * s, h - y)
                sw, sh = -(-rw // s), -(-rh // s)
                whole = (x, y, rw, rh) == (0, 0, w, h)
                region = "full" if whole else f"{x},{y},{rw},{rh}"
                size = "max" if whole and (sw, sh) == (w, h) else f"{sw},{sh}"
                yield f"{region}/{size}/0/default.jpg", (sw, sh)
    for size in info.get("sizes", []):
        name = "max" if (size["width"], size["height"]) == (w, h) else f"{size['width']},{size['height']}"
        yield f"full/{name}/0/default.jpg", (size["width"], size["height"])


def test_every_advertised_tile_exists_with_its_size(served):
    out, root = served
    pages = pages_of(out)
    checked = 0
    for n, page in enumerate(pages, 1):
        folder = out / "iiif" / f"{n:04d}"
        info = json.loads((folder / "info.json").read_text())
        assert info["id"] == f"{root}/iiif/{n:04d}"
        assert (info["width"], info["height"]) == (page["width"], page["height"])
        # The scale factors reach a level one tile covers (a thumbnail from one request).
        last = info["tiles"][0]["scaleFactors"][-1]
        assert info["tiles"][0]["width"] * last >= max(info["width"], info["height"])
        for path, size in advertised(info):
            with Image.open(folder / path) as tile:
                assert tile.format == "JPEG" and tile.size == size, (folder / path, tile.size, size)
            checked += 1
    assert checked > 2 * len(pages)
    # full/max of a JPEG page is the page itself.
    assert (out / "iiif/0001/full/max/0/default.jpg").read_bytes() == (out / pages[0]["files"]["page"]).read_bytes()


def test_manifest_is_presentation_3(served):
    out, root = served
    prezi3 = pytest.importorskip("iiif_prezi3", reason="iiif-prezi3 not installed (Tests/python/setup_venv.sh installs it)")
    data = manifest_of(out)
    model = prezi3.Manifest(**data)  # raises on what the Presentation 3 model refuses
    pages = pages_of(out)
    assert len(model.items) == len(pages)
    assert data["id"] == f"{root}/iiif/manifest.json"
    assert data["label"] == {"none": [out.name]}
    assert data["behavior"] == ["paged"] and data["viewingDirection"] == "left-to-right"
    for n, (canvas, page) in enumerate(zip(data["items"], pages), 1):
        assert canvas["id"] == f"{root}/iiif/canvas/{n:04d}"
        assert (canvas["width"], canvas["height"]) == (page["width"], page["height"])
        assert canvas["label"]["none"][0].startswith(page["source"])
        annotation = canvas["items"][0]["items"][0]
        assert annotation["motivation"] == "painting" and annotation["target"] == canvas["id"]
        assert annotation["body"]["service"][0] == {"id": f"{root}/iiif/{n:04d}", "type": "ImageService3", "profile": "level0"}
    # A model the validator must refuse, so the check above can fail.
    broken = json.loads(json.dumps(data))
    broken["viewingDirection"] = "sideways"
    with pytest.raises(Exception):
        prezi3.Manifest(**broken)


def test_served_files_resolve(served):
    out, root = served
    data = manifest_of(out)
    for canvas in data["items"][:3]:
        for image in canvas["thumbnail"] + [canvas["items"][0]["items"][0]["body"]]:
            with urllib.request.urlopen(image["id"]) as reply:
                assert reply.headers["Content-Type"] == "image/jpeg"
                with Image.open(reply) as im:
                    assert im.size == (image["width"], image["height"])
        with urllib.request.urlopen(canvas["items"][0]["items"][0]["body"]["service"][0]["id"] + "/info.json") as reply:
            assert "json" in reply.headers["Content-Type"]


def test_image_service_passes_the_iiif_validator(served):
    out, root = served
    pytest.importorskip("iiif_validator", reason="iiif-validator not installed (Tests/python/setup_venv.sh installs it)")
    script = Path(sys.executable).parent / "iiif-validate.py"  # installed beside the venv's python
    script = script if script.exists() else Path(shutil.which("iiif-validate.py") or "")
    if not script.is_file():
        pytest.skip("iiif-validate.py not found next to the test environment's python")
    host = root.removeprefix("http://")
    # The level-0 tests; id_squares needs the validator's own test image (coloured squares), so
    # it cannot pass on a page of ours.
    tests = ["info_json", "id_basic", "format_jpg", "size_nofull"]
    for page in ["0001", f"{len(pages_of(out)):04d}"]:
        done = run([script, "-s", host, "-p", "iiif", "-i", page, "--version", "3.0", "--level", "0",
                    *[a for t in tests for a in ("--test", t)]])
        assert f"Done ({len(tests)} tests, 0 failures)" in done.stdout + done.stderr, done.stdout + done.stderr


def test_a_deep_zoom_level_shows_the_page_in_chromium(served, tmp_path):
    out, root = served
    pages = pages_of(out)
    # The largest page, at scale factor 2: several tiles, edge tiles included.
    n = max(range(len(pages)), key=lambda i: pages[i]["width"] * pages[i]["height"])
    page = pages[n]
    level = (-(-page["width"] // 2), -(-page["height"] // 2))
    driver = chromium(level[0] + 40, level[1] + 200)
    try:
        driver.get(f"{root}/iiif_level.html?manifest=/iiif/manifest.json&canvas={n}&scale=2")
        result = None
        for _ in range(200):
            result = driver.execute_script("return window.quireResult || null")
            if result:
                break
            time.sleep(0.05)
        assert result and "error" not in result, result
        assert result["tiles"] >= 4 and result["rightSize"] == result["tiles"]
        assert (result["width"], result["height"]) == level
        shot = tmp_path / "level.png"
        driver.save_screenshot(str(shot))
    finally:
        driver.quit()
    screen = Image.open(shot).convert("RGB").crop((0, 0, *level))
    with Image.open(out / page["files"]["page"]) as original:
        reference = original.convert("RGB").resize(level, Image.LANCZOS)
    diff = np.abs(np.asarray(screen, dtype=np.int16) - np.asarray(reference, dtype=np.int16))
    assert diff.mean() < 3, diff.mean()
    # Seams: the columns and rows where tiles meet are no worse than the rest.
    for x in range(512, level[0], 512):
        assert diff[:, x - 1:x + 1].mean() < 3 * max(diff.mean(), 1)


def test_rerun_redoes_only_what_changed(quire_bin, served):
    out, root = served
    tile = out / "iiif/0001/0,0,512,512/512,512/0/default.jpg"
    before = tile.stat().st_ino
    again = run([quire_bin, "iiif", out, "--base-url", root + "/iiif", "--behavior", "paged"])
    assert again.returncode == 0 and "0 tiled" in again.stderr, again.stderr
    assert tile.stat().st_ino == before
    assert not [p for p in (out / "iiif").iterdir() if p.name.startswith(".")], "no temporary folder left"


def test_process_iiif_writes_the_same_manifest(quire_bin, served, tmp_path):
    out, root = served
    other = tmp_path / out.name
    inputs = sorted(str(p) for p in SAMPLES.glob("*.jpg"))
    done = run([quire_bin, "process", *inputs, "-o", other, "--iiif", root + "/iiif", "--behavior", "paged", "-q"])
    assert done.returncode == 0, done.stderr
    assert (other / "iiif/manifest.json").read_text() == (out / "iiif/manifest.json").read_text()


def test_a_relative_base_url_is_refused(quire_bin, processed_out):
    done = run([quire_bin, "iiif", processed_out, "--base-url", "iiif/"])
    assert done.returncode == 2 and "--base-url" in done.stderr
    assert not (processed_out / "iiif").exists()
