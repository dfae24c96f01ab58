"""Which libtesseract `quire` loads (docs/install.md, "Quire's own libtesseract"): Quire's build
(Scripts/tesseract_fast.sh) when the Makefile linked it beside the binary, Debian's otherwise;
and the build script's cache and fallback, which must never fail a build."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "Scripts" / "tesseract_fast.sh"


def loaded_libtesseract(binary):
    """The file the dynamic loader maps for libtesseract.so.5 in `binary` (ldd's answer)."""
    out = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, _, rest = line.strip().partition(" => ")
        if name == "libtesseract.so.5":
            return Path(rest.split(" (")[0]).resolve()
    pytest.fail(f"{binary} does not link libtesseract.so.5:\n{out}")


def test_quire_loads_the_libtesseract_beside_it_when_linked_and_debians_otherwise(quire_bin):
    if not shutil.which("ldd"):
        pytest.skip("ldd not installed")
    beside = Path(quire_bin).resolve().parent / "libtesseract.so.5"
    loaded = loaded_libtesseract(quire_bin)
    if beside.exists():
        assert loaded == beside.resolve(), f"the Makefile linked {beside.resolve()} but quire loads {loaded}"
    else:
        assert str(loaded).startswith(("/usr/lib/", "/lib/")), f"no library beside quire, yet it loads {loaded}"
    # what the run used, in the test's output (-rA or a failure), so a fallback is never silent
    print(f"quire loads {loaded}: {'Quire' if beside.exists() else 'Debian'}'s build")


def run_script(*args, env):
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env,
                          timeout=60)


def test_a_cached_build_is_reused_without_building(tmp_path):
    if not shutil.which("dpkg-query") or subprocess.run(
            ["dpkg-query", "-W", "libtesseract-dev"], capture_output=True).returncode != 0:
        pytest.skip("libtesseract-dev (dpkg) not installed")
    env = dict(os.environ, QUIRE_TESSERACT_CACHE=str(tmp_path))
    where = run_script("--dir", env=env)
    assert where.returncode == 0 and where.stderr == ""
    folder = Path(where.stdout.strip())
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libtesseract-dev"], capture_output=True,
                             text=True, check=True).stdout
    assert folder.parent == tmp_path and folder.name.startswith(f"tesseract-{version}-"), folder
    folder.mkdir()
    (folder / "libtesseract.so.5").write_bytes(b"stand-in")
    reused = run_script(env=env)
    assert (reused.returncode, reused.stdout.strip(), reused.stderr) == (0, str(folder), "")
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder.name], "it built or logged something"


def test_without_what_it_needs_one_line_and_no_library(tmp_path):
    """No dpkg on the PATH (any missing piece alike): status 0, nothing on stdout (the Makefile then
    links Debian's library), one line on stderr saying so."""
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    bash = shutil.which("bash")
    done = subprocess.run([bash, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Debian's libtesseract" in lines[0], done.stderr


FAKE_APT_GET = """#!/bin/sh
# apt-get source PKG=VERSION: a stand-in source tree whose build makes a tiny shared library
[ "$1" = source ] || exit 1
mkdir -p tesseract-5 && cd tesseract-5 || exit 1
echo "licence text" > LICENSE
printf '#!/bin/sh\\n' > autogen.sh
printf '#!/bin/sh\\necho "configure: $*"\\n' > configure
chmod +x autogen.sh configure
printf 'libtesseract.la:\\n\\tmkdir -p .libs && echo "int f(void) { return 1; }" | cc -shared -fPIC -x c - -o .libs/libtesseract.so.5.0.3\\n' > Makefile
"""


def test_a_build_leaves_the_library_its_licence_and_nothing_else(tmp_path):
    """The whole script with apt's source download replaced by a stand-in tree (its `make` builds a
    tiny library): the cache folder gets the library, Tesseract's licence and BUILD-INFO, the
    configure step gets Debian's options and the optimisation flags, the build folder is gone."""
    for tool in ["dpkg-query", "dpkg-buildflags", "autoreconf", "libtoolize", "cc", "strip", "make"]:
        if not shutil.which(tool):
            pytest.skip(f"{tool} not installed")
    if subprocess.run(["dpkg-query", "-W", "libtesseract-dev"], capture_output=True).returncode != 0:
        pytest.skip("libtesseract-dev (dpkg) not installed")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "apt-get").write_text(FAKE_APT_GET)
    (fake / "apt-cache").write_text("#!/bin/sh\necho 'Package: tesseract'\n")  # a deb-src entry exists
    for f in fake.iterdir():
        f.chmod(0o755)
    cache = tmp_path / "cache"
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}", QUIRE_TESSERACT_CACHE=str(cache))
    done = run_script(env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    folder = Path(done.stdout.strip())
    assert folder == Path(run_script("--dir", env=env).stdout.strip())
    assert sorted(p.name for p in folder.iterdir()) == ["BUILD-INFO", "LICENSE", "libtesseract.so.5"]
    assert (folder / "LICENSE").read_text() == "licence text\n"
    assert sorted(p.name for p in cache.iterdir()) == [folder.name, "tesseract-build.log"]
    configured = next(line for line in (cache / "tesseract-build.log").read_text().splitlines()
                      if line.startswith("configure: "))
    for option in ["--disable-tessdata-prefix", "--disable-static", "-O3 -flto=2 -fno-semantic-interposition",
                   "-Wl,-z,defs", "-DTESSDATA_PREFIX="]:
        assert option in configured, configured
    again = run_script(env=dict(env, PATH=os.environ["PATH"]))  # no stand-in: the cache answers
    assert again.stdout.strip() == str(folder)
