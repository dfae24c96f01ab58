"""The documentation stands on its own: no file cites notes a user of the repository does not
have (LAYOUTS.md, DESIGN.md), and every relative link in README.md and docs/ reaches a file, and
its #anchor a heading of that file."""
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def tracked_files():
    done = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [REPO / name for name in done.stdout.splitlines()]


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    return {slug(line.lstrip("#")) for line in path.read_text().splitlines() if line.startswith("#")}


def test_no_file_cites_notes_users_do_not_have():
    offenders = []
    for path in tracked_files():
        if path.suffix in {".png", ".jpg", ".gif", ".webp", ".pdf", ".tif"} or not path.is_file():
            continue
        if path.name == Path(__file__).name:
            continue
        text = path.read_text(errors="ignore")
        for name in ("LAYOUTS.md", "DESIGN.md"):
            if name in text:
                offenders.append(f"{path.relative_to(REPO)} cites {name}")
    assert not offenders, offenders


def test_relative_links_and_anchors_resolve():
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            destination = (page.parent / file_part).resolve() if file_part else page
            if not destination.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken
