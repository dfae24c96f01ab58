"""`quire pdf OUT` and `quire process ... --pdf` checked with the tools people open PDFs with:
qpdf --check and pdfinfo accept the file; page count and sizes follow the page-size rules;
pdfimages extracts each page's JPEG byte for byte; pdftoppm renders look like the pages;
two runs give identical bytes; one bookmark per source file."""
import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import SAMPLES, run, which_or_skip

A4_SHORT_PT = 210 / 25.4 * 72


def layout_pages(out: Path):
    return sorted(json.loads((out / "layout.json").read_text())["pages"], key=lambda p: p["index"])


def meaningful(dpi):
    """The rule of docs/exports.md: 50-10000 dpi, and not the 72/96 placeholders."""
    return all(50 <= d <= 10000 and min(abs(d - 72), abs(d - 96)) > 0.01 for d in dpi)


def expected_size(out: Path, page, dpi=None, paper_short=A4_SHORT_PT):
    """Page size in points by the documented rules, computed here independently of Quire."""
    path = out / page["files"]["page"]
    with Image.open(path) as im:
        w, h = im.size
        declared = im.info.get("dpi")
    if dpi:
        return w / dpi * 72, h / dpi * 72
    recorded = page.get("dpi")
    if isinstance(recorded, (int, float)):
        recorded = (recorded, recorded)
    elif isinstance(recorded, dict):
        recorded = (recorded["x"], recorded["y"])
    for candidate in (recorded, declared):
        if candidate and meaningful(candidate):
            return w / candidate[0] * 72, h / candidate[1] * 72
    aspect = max(w, h) / min(w, h)
    return (paper_short, paper_short * aspect) if h >= w else (paper_short * aspect, paper_short)


def pdfinfo_sizes(pdf: Path, count: int):
    info = run(["pdfinfo", "-f", 1, "-l", count, pdf])
    assert info.returncode == 0, info.stderr
    return [(float(m.group(1)), float(m.group(2)))
            for m in re.finditer(r"^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info.stdout, re.M)]


@pytest.fixture(scope="module")
def pdf_of(quire_bin, processed_out, tmp_path_factory):
    """The PDF of the processed samples, written by `quire pdf OUT -o FILE`."""
    which_or_skip("pdfinfo", "poppler-utils")
    pdf = tmp_path_factory.mktemp("pdf") / "samples.pdf"
    done = run([quire_bin, "pdf", processed_out, "-o", pdf])
    assert done.returncode == 0, done.stderr
    assert "JPEG as they are" in done.stderr
    return pdf


def test_qpdf_and_pdfinfo_accept_it(pdf_of, processed_out):
    qpdf = which_or_skip("qpdf", "qpdf")
    check = run([qpdf, "--check", pdf_of])
    assert check.returncode == 0, check.stdout + check.stderr
    assert "No syntax or stream encoding errors" in check.stdout
    info = run(["pdfinfo", pdf_of])
    assert info.returncode == 0, info.stderr
    fields = dict(line.split(":", 1) for line in info.stdout.splitlines() if ":" in line)
    assert int(fields["Pages"]) == len(layout_pages(processed_out))
    assert fields["Title"].strip() == processed_out.name
    assert fields["Creator"].strip() == "Quire"
    assert "CreationDate" not in fields, "no creation date unless asked"


def test_page_sizes_follow_the_rules(pdf_of, processed_out, quire_bin, tmp_path):
    pages = layout_pages(processed_out)
    sizes = pdfinfo_sizes(pdf_of, len(pages))
    assert len(sizes) == len(pages)
    for page, (w, h) in zip(pages, sizes):
        ew, eh = expected_size(processed_out, page)
        assert abs(w - ew) < 0.05 and abs(h - eh) < 0.05, (page["files"]["page"], (w, h), (ew, eh))
    # --dpi gives every page its pixel size at that resolution.
    fixed = tmp_path / "300.pdf"
    assert run([quire_bin, "pdf", processed_out, "-o", fixed, "--dpi", 300, "-q"]).returncode == 0
    for page, (w, h) in zip(pages, pdfinfo_sizes(fixed, len(pages))):
        ew, eh = expected_size(processed_out, page, dpi=300)
        assert abs(w - ew) < 0.05 and abs(h - eh) < 0.05


def test_pdfimages_gives_back_the_jpeg_pages(pdf_of, processed_out, tmp_path):
    which_or_skip("pdfimages", "poppler-utils")
    listing = run(["pdfimages", "-list", pdf_of])
    assert listing.returncode == 0
    rows = [line.split() for line in listing.stdout.splitlines()[2:] if line.strip()]
    pages = layout_pages(processed_out)
    assert [int(r[0]) for r in rows] == list(range(1, len(pages) + 1)), "one image per page, in order"
    assert all(r[2] == "image" and r[8] == "jpeg" for r in rows)
    assert run(["pdfimages", "-all", pdf_of, tmp_path / "img"]).returncode == 0
    extracted = sorted(tmp_path.glob("img-*"))
    assert len(extracted) == len(pages)
    for page, image in zip(pages, extracted):
        assert image.suffix == ".jpg"
        assert image.read_bytes() == (processed_out / page["files"]["page"]).read_bytes(), page["files"]["page"]


def test_pdftoppm_renders_look_like_the_pages(pdf_of, processed_out, tmp_path):
    which_or_skip("pdftoppm", "poppler-utils")
    pages = layout_pages(processed_out)
    sizes = pdfinfo_sizes(pdf_of, len(pages))
    for n in sorted({1, len(pages) // 2 + 1, len(pages)}):
        page = pages[n - 1]
        # Rendered at the page's own resolution: one PDF pixel per page pixel, so the render is
        # the decoded JPEG up to poppler's and Pillow's decoders and rounding at the edges.
        # A hair under it: at exactly 1:1, poppler 22 (Splash) blurs every edge of a page whose
        # size in points is fractional (mean difference 3.5 levels; 0.008 at 0.01 % less).
        dpi = page["width"] / sizes[n - 1][0] * 72 * 0.9999
        prefix = tmp_path / f"r{n}"
        assert run(["pdftoppm", "-r", f"{dpi:.4f}", "-f", n, "-l", n, "-png", "-singlefile", pdf_of, prefix]).returncode == 0
        render = Image.open(f"{prefix}.png").convert("RGB")
        with Image.open(processed_out / page["files"]["page"]) as original:
            assert abs(render.width - original.width) <= 1 and abs(render.height - original.height) <= 1
            reference = original.convert("RGB").resize(render.size, Image.LANCZOS)
        diff = np.abs(np.asarray(render, dtype=np.int16) - np.asarray(reference, dtype=np.int16))
        assert diff.mean() < 1.0, (n, diff.mean())  # measured 0.003-0.17
        # A wrong page, or a blank one, is far off.
        with Image.open(processed_out / pages[n % len(pages)]["files"]["page"]) as other:
            wrong = np.asarray(other.convert("RGB").resize(render.size), dtype=np.int16)
        assert np.abs(np.asarray(render, dtype=np.int16) - wrong).mean() > 3 * max(diff.mean(), 1)


def test_one_bookmark_per_source_file(pdf_of, processed_out):
    qpdf = which_or_skip("qpdf", "qpdf")
    outline = json.loads(run([qpdf, "--json", "--json-key=outlines", pdf_of]).stdout)["outlines"]
    pages = layout_pages(processed_out)
    firsts = []
    for i, page in enumerate(pages):
        if i == 0 or page["source"] != pages[i - 1]["source"]:
            firsts.append((page["source"], i + 1))
    assert [(o["title"], o["destpageposfrom1"]) for o in outline] == firsts


def test_reproducible_and_resumed(quire_bin, processed_out, pdf_of, tmp_path):
    again = tmp_path / "again.pdf"
    assert run([quire_bin, "pdf", processed_out, "-o", again, "-q"]).returncode == 0
    assert again.read_bytes() == pdf_of.read_bytes(), "two runs over the same pages give identical bytes"
    before = again.stat().st_mtime_ns
    kept = run([quire_bin, "pdf", processed_out, "-o", again])
    assert kept.returncode == 0 and "up to date" in kept.stderr
    assert again.stat().st_mtime_ns == before
    dated = tmp_path / "dated.pdf"
    assert run([quire_bin, "pdf", processed_out, "-o", dated, "--creation-date", "2026-01-02T03:04:05Z", "-q"]).returncode == 0
    assert "CreationDate:    Fri Jan  2 03:04:05 2026" in run(["pdfinfo", dated]).stdout
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") or ".partial-" in p.name], "no temporary file left"


def test_process_pdf_writes_the_same_file(quire_bin, processed_out, pdf_of, tmp_path):
    """`quire process ... --pdf` runs the same export after the batch; with no --title it is
    titled after OUT, as `quire pdf` is, so the files are identical."""
    out = tmp_path / processed_out.name
    inputs = sorted(str(p) for p in SAMPLES.glob("*.jpg"))
    done = run([quire_bin, "process", *inputs, "-o", out, "--pdf", "-q"])
    assert done.returncode == 0, done.stderr
    assert (out / "pages.pdf").read_bytes() == pdf_of.read_bytes()


def test_a_folder_without_layout_is_one_clear_line(quire_bin, tmp_path):
    done = run([quire_bin, "pdf", tmp_path])
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and str(tmp_path) in done.stderr
