"""Every JSON Quire writes or reads has a schema in Schemas/, and real outputs validate against
it with a complete JSON Schema (2020-12) validator: layout.json, strip.json, the shard record,
`quire detect`'s output, the corners file and the --progress json lines. Each schema also
rejects a broken document, so the checks can fail."""
import copy
import json
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "Schemas"
SAMPLES = REPO / "Tests" / "Fixtures" / "generated"
jsonschema = pytest.importorskip("jsonschema")


def validator(name):
    schema = json.loads((SCHEMAS / f"quire.{name}-1.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def rejects(name, document):
    return not validator(name).is_valid(document)


def run(*args, check=True):
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode in (0, 1), done.stderr
    return done


def test_every_schema_is_valid_json_schema_2020_12():
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert {"quire.layout-1.schema.json", "quire.strip-1.schema.json", "quire.shard-1.schema.json",
            "quire.detect-1.schema.json", "quire.corners-1.schema.json", "quire.progress-1.schema.json",
            "quire.layout-request-1.schema.json", "quire.layout-response-1.schema.json"} <= set(names)
    for name in names:
        jsonschema.Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text()))


@pytest.fixture(scope="module")
def mixed_batch(quire_bin, processed_out, tmp_path_factory):
    """A batch with a multi-page PDF (made by `quire pdf`), a 150 dpi TIFF, photos, a broken
    file and a missing one, run with --progress json."""
    work = tmp_path_factory.mktemp("mixed")
    pdf = work / "book.pdf"
    run(quire_bin, "pdf", processed_out, "-o", pdf, "-q")
    tiff = work / "scan.tif"
    # vips copy takes the resolution in pixels per millimetre.
    run("vips", "copy", SAMPLES / "scan_004.jpg", tiff, "--xres", 150 / 25.4, "--yres", 150 / 25.4)
    broken = work / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not a jpeg")
    out = work / "out"
    done = run(quire_bin, "process", SAMPLES / "cap_000.jpg", pdf, tiff, broken, work / "missing.png",
               "-o", out, "--progress", "json", "--dpi", 100)
    assert done.returncode == 1
    return out, [json.loads(line) for line in done.stdout.splitlines()]


def test_layout_json_of_a_mixed_batch(mixed_batch):
    out, _ = mixed_batch
    layout = json.loads((out / "layout.json").read_text())
    validator("layout").validate(layout)
    assert layout["options"]["pdfDPI"] == 100
    assert (layout["options"]["edges"], layout["options"]["mode"]) == ("auto", "colour")
    by_source = {}
    for page in layout["pages"]:
        by_source.setdefault(Path(page["source"]).name, []).append(page)
    # A PDF page has its render resolution; the TIFF its own; a photo without paper size none.
    assert all(p["dpi"] == 100 for p in by_source["book.pdf"]) and len(by_source["book.pdf"]) > 1
    assert abs(by_source["scan.tif"][0]["dpi"] - 150) < 0.05
    assert by_source["cap_000.jpg"][0]["dpi"] is None
    for page in layout["pages"]:
        for key, file in (("previewSize", "preview"), ("thumbnailSize", "thumbnail")):
            header = run("vipsheader", "-f", "width", out / page["files"][file]).stdout.strip()
            assert int(header) == page[key]["width"]
    assert sorted(e["code"] for e in layout["errors"]) == ["not-found", "truncated"]


def test_progress_lines_cover_every_page_and_error(mixed_batch):
    out, lines = mixed_batch
    layout = json.loads((out / "layout.json").read_text())
    v = validator("progress")
    for line in lines:
        v.validate(line)
    assert len(lines) == len(layout["pages"]) + len(layout["errors"]) == lines[-1]["total"]
    assert [line["done"] for line in lines] == list(range(1, len(lines) + 1))
    failed = sorted(line["code"] for line in lines if line["status"] == "failed")
    assert failed == sorted(e["code"] for e in layout["errors"])


def test_strip_json(quire_bin, processed_out):
    run(quire_bin, "strip", processed_out, "--focus", 0, "--contact-sheet", "--max-width", 200)
    strip = json.loads((processed_out / "strips" / "strip.json").read_text())
    validator("strip").validate(strip)
    assert len(strip["sprites"]) > 1 and strip["focus"] and strip["contactSheet"]


def test_shard_records_and_their_merge(quire_bin, tmp_path):
    outs = []
    for k in (1, 2):
        out = tmp_path / f"shard{k}"
        run(quire_bin, "process", SAMPLES, "-o", out, "--shard", f"{k}/2", "--viewer", "none", "-q")
        record = json.loads((out / ".quire" / "shard.json").read_text())
        validator("shard").validate(record)
        validator("layout").validate(json.loads((out / "layout.json").read_text()))
        outs.append(out)
    merged = tmp_path / "merged"
    run(quire_bin, "merge", *outs, "-o", merged, "-q")
    validator("layout").validate(json.loads((merged / "layout.json").read_text()))


def test_detect_output_and_corners_file(quire_bin, tmp_path):
    corners = tmp_path / "corners.json"
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not a jpeg")
    done = run(quire_bin, "detect", *sorted(SAMPLES.glob("*.jpg")), bad, "--timing", "--corners-out", corners)
    detect = json.loads(done.stdout)
    validator("detect").validate(detect)
    assert {r.get("kind") for r in detect["results"]} >= {"photo", "scan", None}
    written = json.loads(corners.read_text())
    validator("corners").validate(written)
    assert written


def test_each_schema_rejects_a_broken_document(mixed_batch):
    out, lines = mixed_batch
    layout = json.loads((out / "layout.json").read_text())
    broken = copy.deepcopy(layout)
    broken["pages"][0]["dpi"] = "150"
    assert rejects("layout", broken)
    broken = copy.deepcopy(layout)
    broken["errors"][0]["code"] = "oops"
    assert rejects("layout", broken)
    failed = next(line for line in lines if line["status"] == "failed")
    assert rejects("progress", {k: v for k, v in failed.items() if k != "code"})
    ok = next(line for line in lines if line["status"] == "ok")
    assert rejects("progress", dict(ok, message="why"))
    assert rejects("corners", {"a#b.jpg": [[0, 0], [1, 0], [1, 1], [0, 1]]})
    assert rejects("corners", {"a.jpg": [[0, 0], [1, 0], [1, 1]]})
    assert rejects("detect", {"results": [{"source": "x", "width": 0, "height": 0, "confidence": 0,
                                           "quad": None, "skewDegrees": None, "error": "no such file"}]})
    strip = {"schema": "quire.strip/1", "height": 66, "scale": 1, "pixelHeight": 66, "spacing": 4, "format": "jpeg",
             "background": "#ffffff", "focus": [], "pages": [],
             "sprites": [{"file": "strips/strip.jpg", "width": 1, "height": 66, "firstPage": 0, "lastPage": 0}]}
    assert not rejects("strip", strip)
    assert rejects("strip", dict(strip, background="white"))
    assert rejects("shard", {"schema": "quire.shard/1", "shardIndex": 0, "shardCount": 2, "inputs": [],
                             "pageCount": 0, "thumbnailsOnly": False, "pages": [], "errors": []})


def test_clean_up_options_are_recorded(quire_bin, tmp_path):
    out = tmp_path / "bw"
    run(quire_bin, "process", SAMPLES / "scan_004.jpg", "-o", out, "--format", "png", "--mode", "bw",
        "--background", "white", "--edges", "keep", "-q")
    layout = json.loads((out / "layout.json").read_text())
    validator("layout").validate(layout)
    assert (layout["options"]["mode"], layout["options"]["background"], layout["options"]["edges"]) == ("bw", "white", "keep")
    assert layout["pages"][0]["edgeFill"] is None
    png = (out / layout["pages"][0]["files"]["page"]).read_bytes()
    assert png[24] == 1, "a 1-bit PNG"


def test_layout_requests_follow_the_request_schema():
    v = validator("layout-request")
    good = [
        {"id": "p", "layout": "pager", "viewport": {"width": 390, "height": 844}, "aspectRatios": [0.5, 2, None],
         "offset": {"x": 195, "y": 0}, "snap": {"proposedOffset": {"x": 300, "y": 0}, "velocity": {"x": 1, "y": 0}}},
        {"layout": "strip", "viewport": {"width": 390, "height": 66}, "count": 6, "offset": {"x": -176.5, "y": 0},
         "animation": {"kind": "delete", "index": 2, "phase": "collapse", "progress": 0.5},
         "parameters": {"updates": [{"index": 1, "kind": "delete", "value": 0.5, "direction": "left"}]}},
        {"layout": "featured", "pagesFrom": "out/layout.json", "rect": {"x": 0, "y": 0, "width": 375, "height": 2000}},
    ]
    for request in good:
        v.validate(request)
    assert not v.is_valid({"layout": "pager", "viewport": {"width": 1, "height": 1}, "count": 1, "aspectRatios": [1]})
    assert not v.is_valid({"layout": "grid", "viewport": {"width": 1, "height": 1}, "count": 1})
