"""`make install PREFIX=...` gives a `quire` that runs without the Swift toolchain: no libswift*
or Foundation library is loaded from anywhere, and it still processes a page (libvips is the
only run-time dependency left). Also checks the man page and the completions it installs.

The most expensive Python test: the install build is a release build with
`--static-swift-stdlib`, which recompiles every module (even in debug), so it shares nothing with
the suite's debug build (docs/benchmarks.md, "Test suite time"); it builds into the checkout's .build-static, so only the first run in a checkout pays
in full. Marked `install` so a quick local run can leave it out (`-m 'not install'`)."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.install
def test_make_install_gives_a_quire_that_needs_no_swift_toolchain(tmp_path):
    if not shutil.which("make"):
        pytest.skip("make not installed")
    prefix = tmp_path / "prefix"
    run = subprocess.run(["make", "--no-print-directory", "install", f"PREFIX={prefix}"], cwd=REPO,
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    quire = prefix / "bin" / "quire"
    assert os.access(quire, os.X_OK)
    for f in ["share/man/man1/quire.1", "share/bash-completion/completions/quire",
              "share/zsh/site-functions/_quire", "share/fish/vendor_completions.d/quire.fish"]:
        assert (prefix / f).stat().st_size > 100, f
    libraries = subprocess.run(["ldd", str(quire)], capture_output=True, text=True).stdout
    assert "libswift" not in libraries and "libFoundation" not in libraries, libraries
    assert "libvips" in libraries
    # no toolchain on the paths: a clean environment with only the system's folders
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    version = subprocess.run([str(quire), "--version"], capture_output=True, text=True, env=env)
    import re
    declared = re.search(r'version: "([^"]+)"', (REPO / "Sources/quire/Quire.swift").read_text()).group(1)
    assert version.returncode == 0 and version.stdout.strip() == declared
    sample = sorted((REPO / "Tests" / "Fixtures" / "generated").glob("*.jpg"))[0]
    out = tmp_path / "out"
    done = subprocess.run([str(quire), "process", str(sample), "-o", str(out), "-q"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert (out / "pages" / "0001.jpg").exists()
