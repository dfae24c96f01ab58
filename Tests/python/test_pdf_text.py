"""The PDF's invisible text layer and PDF/A, checked with poppler and qpdf as a reader would:
pdftotext gives the page's words in order, pdftotext -bbox puts each word over its box on the
image, non-Latin and right-to-left words come out as text, and --pdfa adds every part PDF/A-2b
requires (no PDF/A validator is packaged for Debian or PyPI, so each part is checked here)."""
import difflib
import html
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, TESSERACT_ENV, run, which_or_skip

SCAN = REPO / "Tools" / "accuracy" / "real-scans" / "ocrmypdf" / "epson.pdf"
SCRIPTS = REPO / "Tests" / "Fixtures" / "hocr" / "scripts.hocr"


def hocr_words(path: Path):
    """(text, (x0, y0, x1, y1)) of every ocrx_word, in file order."""
    text = path.read_text()
    found = []
    for box, inner in re.findall(r"class='ocrx_word'[^>]*?title='bbox (\d+ \d+ \d+ \d+);[^']*'[^>]*>(.*?)</span>", text):
        word = html.unescape(re.sub(r"<[^>]+>", "", inner)).strip()
        if word:
            found.append((word, tuple(int(v) for v in box.split())))
    return found


@pytest.fixture(scope="module")
def scanned(quire_bin, tmp_path_factory):
    """A real scan processed by quire, with hOCR from the tesseract command beside its page."""
    tesseract = which_or_skip("tesseract", "tesseract-ocr")
    out = tmp_path_factory.mktemp("scanned") / "out"
    done = run([quire_bin, "process", SCAN, "-o", out, "-q", "--page-timeout", 0])  # an input: no wall-clock limit (conftest)
    assert done.returncode == 0, done.stderr
    (out / "text").mkdir(exist_ok=True)
    made = run([tesseract, out / "pages" / "0001.jpg", out / "text" / "0001", "-l", "eng", "hocr"], env=TESSERACT_ENV)
    assert made.returncode == 0, made.stderr
    return out


@pytest.fixture(scope="module")
def text_pdf(quire_bin, scanned):
    made = run([quire_bin, "pdf", scanned, "--force"])
    assert made.returncode == 0 and "1 with text" in made.stderr, made.stderr
    return scanned / "pages.pdf"


def test_pdftotext_gives_the_words_in_reading_order(text_pdf, scanned):
    words = [w for w, _ in hocr_words(scanned / "text" / "0001.hocr")]
    assert len(words) > 300
    # In content order (-raw) the text is exactly the hOCR's words.
    raw = run(["pdftotext", "-raw", text_pdf, "-"]).stdout.split()
    assert raw == words
    # In poppler's own reading order, as a user's `pdftotext` gives it.
    flowed = run(["pdftotext", text_pdf, "-"]).stdout.split()
    assert difflib.SequenceMatcher(None, flowed, words, autojunk=False).ratio() >= 0.95


def test_every_word_lies_over_its_box(text_pdf, scanned):
    """pdftotext -bbox: each word's left and right edges within 2 px of the hOCR box, its band
    within its line."""
    which_or_skip("pdftotext", "poppler-utils")
    boxes = run(["pdftotext", "-bbox", "-raw", text_pdf, "-"]).stdout
    width, height = (float(v) for v in re.search(r'<page width="([\d.]+)" height="([\d.]+)"', boxes).groups())
    pdf_words = [(html.unescape(t), tuple(float(v) for v in b)) for *b, t in
                 re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', boxes)]
    expected = hocr_words(scanned / "text" / "0001.hocr")
    page_w, page_h = 1653, 2336
    info = run(["vipsheader", scanned / "pages" / "0001.jpg"]).stdout
    page_w, page_h = (int(v) for v in re.search(r"(\d+)x(\d+)", info).groups())
    sx, sy = page_w / width, page_h / height
    assert [w for w, _ in pdf_words] == [w for w, _ in expected]
    within = 0
    for (_, (x0, y0, x1, y1)), (_, (a0, b0, a1, b1)) in zip(expected, pdf_words):
        if abs(a0 * sx - x0) <= 2 and abs(a1 * sx - x1) <= 2:
            within += 1
        assert b0 * sy <= y1 + 2 and b1 * sy >= y0 - 2, "the word's band misses its box"
    assert within == len(expected)


def test_the_jpeg_still_goes_in_byte_for_byte_and_the_text_is_small(text_pdf, scanned, tmp_path):
    which_or_skip("pdfimages", "poppler-utils")
    assert run(["pdfimages", "-all", text_pdf, tmp_path / "img"]).returncode == 0
    assert (tmp_path / "img-000.jpg").read_bytes() == (scanned / "pages" / "0001.jpg").read_bytes()
    overhead = text_pdf.stat().st_size - (scanned / "pages" / "0001.jpg").stat().st_size
    assert overhead < 30_000, f"{overhead} bytes of PDF around one page"


def test_qpdf_and_the_fonts_accept_it(text_pdf):
    assert run([which_or_skip("qpdf", "qpdf"), "--check", text_pdf]).returncode == 0
    fonts = run(["pdffonts", text_pdf]).stdout
    assert "GlyphLessFont" in fonts and re.search(r"CID TrueType\s+Identity-H\s+yes\s+no\s+yes", fonts), fonts


def test_non_latin_and_right_to_left_words_come_out_as_text(quire_bin, scanned, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(scanned, out)
    shutil.copy(SCRIPTS, out / "text" / "0001.hocr")
    assert run([quire_bin, "pdf", out, "--force", "-q"]).returncode == 0
    # poppler wraps right-to-left runs in embedding marks (U+202B ... U+202C).
    marks = str.maketrans("", "", "\u202b\u202c")
    raw = run(["pdftotext", "-raw", out / "pages.pdf", "-"]).stdout.translate(marks)
    for word in ["Fish&Chips", "<café>", "Ελληνικά", "日本語", "مرحبا", "بالعالم", "שלום", "2026"]:
        assert word in raw.split(), (word, raw)
    # In reading order the Arabic line reads right to left: its right word first.
    flowed = run(["pdftotext", out / "pages.pdf", "-"]).stdout.translate(marks)
    assert "مرحبا بالعالم" in flowed, flowed


def _object(pdf: Path, ref: str):
    data = json.loads(run(["qpdf", "--json", "--json-stream-data=inline", pdf]).stdout)
    return data["qpdf"][1]["obj:" + ref], data


def test_pdfa_has_every_part_pdfa_2b_requires(quire_bin, scanned, tmp_path):
    which_or_skip("qpdf", "qpdf")
    pdf = tmp_path / "archive.pdf"
    made = run([quire_bin, "pdf", scanned, "-o", pdf, "--pdfa", "--title", "Épreuve & test",
                "--author", "Quire", "--creation-date", "2026-01-02T03:04:05Z"])
    assert made.returncode == 0, made.stderr
    raw = pdf.read_bytes()
    # Header: %PDF-1.n then a comment of four bytes over 127 (ISO 19005-2, 6.1.2).
    assert re.match(rb"%PDF-1\.[0-7]\n%[\x80-\xff]{4}\n", raw)
    assert run(["qpdf", "--check", pdf]).returncode == 0
    data = json.loads(run(["qpdf", "--json", "--json-stream-data=inline", pdf]).stdout)
    objects = data["qpdf"][1]
    trailer = objects["trailer"]["value"]
    # A file identifier; no encryption (6.1.3).
    assert len(trailer["/ID"]) == 2 and "/Encrypt" not in trailer
    catalog = objects["obj:" + trailer["/Root"]]["value"]
    # The output intent: GTS_PDFA1 with an RGB ICC profile that parses (6.2.3).
    intent = catalog["/OutputIntents"][0]
    assert intent["/S"] == "/GTS_PDFA1"
    profile = objects["obj:" + intent["/DestOutputProfile"]]["stream"]
    assert profile["dict"]["/N"] == 3
    import base64
    from PIL import ImageCms
    icc = ImageCms.ImageCmsProfile(io.BytesIO(base64.b64decode(profile["data"])))
    assert icc.profile.xcolor_space.strip() == "RGB"
    # XMP metadata, unfiltered, naming PDF/A-2B and agreeing with the Info dictionary (6.6).
    metadata = objects["obj:" + catalog["/Metadata"]]["stream"]
    assert "/Filter" not in metadata["dict"] and metadata["dict"]["/Subtype"] == "/XML"
    xmp = base64.b64decode(metadata["data"]).decode("utf-8")
    import xml.dom.minidom
    xml.dom.minidom.parseString(xmp.split("?>", 1)[1].rsplit("<?xpacket", 1)[0])
    assert "<pdfaid:part>2</pdfaid:part>" in xmp and "<pdfaid:conformance>B</pdfaid:conformance>" in xmp
    assert "Épreuve &amp; test" in xmp and "<xmp:CreateDate>2026-01-02T03:04:05Z</xmp:CreateDate>" in xmp
    info = run(["pdfinfo", pdf]).stdout
    assert "Épreuve & test" in info and "Producer:        Quire" in info and "Creator:         Quire" in info
    assert "<pdf:Producer>Quire</pdf:Producer>" in xmp and "<xmp:CreatorTool>Quire</xmp:CreatorTool>" in xmp
    # Every font embedded (6.2.11.4), no glyph mapped to .notdef (6.2.11.8).
    fonts = run(["pdffonts", pdf]).stdout.splitlines()[2:]
    assert fonts and all(re.search(r"\byes\s+\S+\s+\S+\s+\d+\s+0$", f) or " yes " in f for f in fonts)
    # Images: DeviceRGB or DeviceGray under the RGB output intent, no transparency (6.2.4, 6.2.9).
    for key, obj in objects.items():
        d = obj.get("stream", {}).get("dict", {})
        if d.get("/Subtype") == "/Image":
            assert d["/ColorSpace"] in ("/DeviceRGB", "/DeviceGray") and "/SMask" not in d
    # No JavaScript, actions or embedded files anywhere.
    assert b"/JavaScript" not in raw and b"/EmbeddedFile" not in raw and b"/AA" not in raw


def test_iiif_carries_the_text_ranges_and_the_pdf(quire_bin, scanned, text_pdf):
    prezi3 = pytest.importorskip("iiif_prezi3", reason="iiif-prezi3 not installed (Tests/python/setup_venv.sh installs it)")
    base = "https://example.org/book/iiif"
    made = run([quire_bin, "iiif", scanned, "--base-url", base, "-q"])
    assert made.returncode == 0, made.stderr
    manifest = json.loads((scanned / "iiif" / "manifest.json").read_text())
    prezi3.Manifest(**manifest)  # raises on what Presentation 3 refuses
    canvas = manifest["items"][0]
    assert canvas["annotations"] == [{"id": f"{base}/text/0001.json", "type": "AnnotationPage"}]
    page = json.loads((scanned / "iiif" / "text" / "0001.json").read_text())
    prezi3.AnnotationPage(**page)
    lines = [a["body"]["value"] for a in page["items"]]
    assert all(a["motivation"] == "supplementing" for a in page["items"])
    assert " ".join(lines).split() == [w for w, _ in hocr_words(scanned / "text" / "0001.hocr")]
    assert manifest["rendering"][0]["id"] == f"{base}/pages.pdf"
    assert (scanned / "iiif" / "pages.pdf").read_bytes() == text_pdf.read_bytes()
    assert manifest["structures"][0]["items"][0]["id"] == canvas["id"]
    assert {"label": {"none": ["Pages"]}, "value": {"none": ["1"]}} in manifest["metadata"]


def test_process_ocr_and_pdf_make_a_searchable_pdf(quire_bin, tmp_path):
    """End to end: `quire process --ocr --pdf` on a real scan gives a PDF whose text is the
    page's hOCR, word for word."""
    out = tmp_path / "out"
    made = run([quire_bin, "process", SCAN, "-o", out, "--ocr", "--pdf", "-q", "--page-timeout", 0])  # no wall-clock limit (conftest)
    if "OCR and orientation are off" in made.stderr:
        pytest.skip("Tesseract's data is not installed")
    assert made.returncode == 0, made.stderr
    page = json.loads((out / "layout.json").read_text())["pages"][0]
    words = [w for w, _ in hocr_words(out / page["text"]["hocr"])]
    assert len(words) == page["text"]["words"] > 300
    assert run(["pdftotext", "-raw", out / "pages.pdf", "-"]).stdout.split() == words
