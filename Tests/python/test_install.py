"""`make install PREFIX=...` gives a `quire` that runs without the Swift toolchain: no libswift*
or Foundation library is loaded from anywhere, and it still processes a page (libvips is the
only run-time dependency left). Also checks the man page and the completions it installs.

The most expensive Python test: `--static-swift-stdlib` recompiles every module (even in debug),
so the install build shares nothing with the suite's debug build (docs/benchmarks.md, "Test suite
time"). It is built with INSTALL_CONFIG=debug: what is checked (the linking, the files installed,
that it runs without the toolchain) does not depend on optimisation, and a debug build costs a
fraction of a release one. The man page comes from argument-parser's generate-manual run on the
installed binary (built in the same folder, reusing ArgumentParser), not from the package
plugin, which built every product again. Without debug information (-debug-info-format none) and,
as every `make install`, without an index store: nothing checked reads either, and the two cost
about 15 % of the build's CPU (docs/benchmarks.md, "Test suite time"). The build stays in
.build-static for later runs in the same checkout. Marked `install` so that a quick local run
can leave it out (`-m 'not install'`)."""
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from conftest import HANG_GUARD_SECONDS

REPO = Path(__file__).resolve().parents[2]
# A hang guard for `make install`, not a measurement: twice conftest's, as this is a whole build.
INSTALL_HANG_GUARD_SECONDS = 2 * HANG_GUARD_SECONDS


@pytest.mark.install
def test_make_install_gives_a_quire_that_needs_no_swift_toolchain(tmp_path):
    if not shutil.which("make"):
        pytest.skip("make not installed")
    prefix = tmp_path / "prefix"
    # its own process group, so that a hang guard that fires stops swift-build too (killing make
    # alone left it building for the rest of the run; a whole release build on a loaded 2-core
    # machine took more than 30 minutes of wall time). The compilers it started run in groups of
    # their own and finish the file they are on.
    make = subprocess.Popen(["make", "--no-print-directory", "install", f"PREFIX={prefix}", "INSTALL_CONFIG=debug",
                             "INSTALL_SWIFT_FLAGS=-debug-info-format none"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = make.communicate(timeout=INSTALL_HANG_GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(make.pid, signal.SIGKILL)
        make.communicate()
        raise
    assert make.returncode == 0, stdout[-2000:] + stderr[-2000:]
    quire = prefix / "bin" / "quire"
    assert os.access(quire, os.X_OK)
    for f in ["share/man/man1/quire.1", "share/bash-completion/completions/quire",
              "share/zsh/site-functions/_quire", "share/fish/vendor_completions.d/quire.fish"]:
        assert (prefix / f).stat().st_size > 100, f
    manual = (prefix / "share/man/man1/quire.1").read_text()
    assert ".Dt QUIRE 1" in manual and "corrections" in manual, manual[:500]  # every subcommand's options
    libraries = subprocess.run(["ldd", str(quire)], capture_output=True, text=True).stdout
    assert "libswift" not in libraries and "libFoundation" not in libraries, libraries
    assert "libvips" in libraries
    # Quire's libtesseract, when `make tesseract-fast` could build it, installed beside and loaded
    # through quire's RUNPATH (no LD_LIBRARY_PATH); Debian's otherwise (test_tesseract_fast.py)
    bundled = prefix / "lib" / "quire" / "libtesseract.so.5"
    tesseract = next(line for line in libraries.splitlines() if "libtesseract.so.5 =>" in line)
    loaded = Path(tesseract.split(" => ")[1].split(" (")[0]).resolve()
    if bundled.exists():
        assert loaded == bundled.resolve(), tesseract
    else:
        assert str(loaded).startswith(("/usr/lib/", "/lib/")), tesseract
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
