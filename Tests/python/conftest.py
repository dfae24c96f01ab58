"""Shared fixtures for the end-to-end tests that need tools outside Swift: a real browser, PDF
checkers, JSON Schema and IIIF validators. `make test` runs them after `swift test` with
QUIRE_BIN pointing at the built `quire`."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "Tests" / "Fixtures" / "generated"


@pytest.fixture(scope="session")
def quire_bin() -> str:
    """Path of the `quire` binary under test (QUIRE_BIN, or the debug build)."""
    path = os.environ.get("QUIRE_BIN")
    if not path:
        out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO,
                             capture_output=True, text=True, check=True).stdout.strip()
        path = os.path.join(out, "quire")
    if not os.access(path, os.X_OK):
        pytest.fail(f"quire binary not found at {path}: run `swift build --product quire`")
    return path


@pytest.fixture(scope="session")
def processed_out(quire_bin, tmp_path_factory) -> Path:
    """A finished OUT folder: `quire process` over the generated test pages (Tests/Fixtures/generated)."""
    out = tmp_path_factory.mktemp("samples-out")
    inputs = sorted(str(p) for p in SAMPLES.glob("*.jpg"))
    run = subprocess.run([quire_bin, "process", *inputs, "-o", str(out)],
                         capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    assert (out / "layout.json").exists()
    return out


def which_or_skip(tool: str, package: str) -> str:
    """The path of a command-line tool, or a clear skip naming the Debian package."""
    path = shutil.which(tool)
    if not path:
        pytest.skip(f"{tool} not installed (Debian package {package}; `make deps` installs it)")
    return path
