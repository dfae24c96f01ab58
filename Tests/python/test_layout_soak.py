"""A short soak of `quire layout --lines` (Tools/soak/layout_soak.py; `make soak` runs the long
one): a seeded mix of valid, hostile and huge requests, each answered once, in order, with one
JSON object, while the process's RSS stays within a bound of its warm-up peak."""
import subprocess
import sys
from pathlib import Path

SOAK = Path(__file__).resolve().parents[2] / "Tools" / "soak" / "layout_soak.py"


def test_short_soak_answers_every_line_and_keeps_memory_flat(quire_bin):
    run = subprocess.run([sys.executable, str(SOAK), "--quire", quire_bin, "--duration", "15", "--seed", "34"],
                         capture_output=True, text=True, timeout=300)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PROBLEM" not in run.stdout
