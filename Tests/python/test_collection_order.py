"""The longest test files are collected first and xdist's loadfile keeps that order (conftest):
otherwise `make test`'s two workers got the files with most tests first and ended the run with
the two longest files, one test each, running after everything else."""
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import conftest

HERE = Path(__file__).resolve().parent


def test_the_longest_files_are_collected_first_and_the_rest_keep_their_order():
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(HERE)],
                            capture_output=True, text=True, cwd=HERE.parents[1], timeout=conftest.HANG_GUARD_SECONDS)
    assert listed.returncode == 0, listed.stdout[-2000:] + listed.stderr[-2000:]
    files = []
    for line in listed.stdout.splitlines():
        if "::" in line:
            name = Path(line.split("::", 1)[0]).name
            if not files or files[-1] != name:
                files.append(name)
    assert len(files) == len(set(files)), f"a file's tests are split: {files}"
    present = [name for name in conftest.LONGEST_FILES_FIRST if (HERE / name).exists()]
    assert files[:len(present)] == present, files[:len(present) + 2]
    rest = files[len(present):]
    assert rest == sorted(rest), rest   # pytest's own order (by name) for the others


def test_xdist_loadfile_keeps_the_collection_order():
    option = SimpleNamespace(dist="loadfile", loadscopereorder=True)
    config = SimpleNamespace(option=option, addinivalue_line=lambda *a: None)
    conftest.pytest_configure(config)
    assert option.loadscopereorder is False
    # one by one (no xdist) nothing is changed
    option = SimpleNamespace(dist="no", loadscopereorder=True)
    conftest.pytest_configure(SimpleNamespace(option=option, addinivalue_line=lambda *a: None))
    assert option.loadscopereorder is True
