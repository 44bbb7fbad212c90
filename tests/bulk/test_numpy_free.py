"""numpy is imported by the bulk package only: not by ``import dealerpp``,
the deal model and readers, the preprocessing path, or a convert that has
no fast path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PREPROCESS = """
import io, sys
import dealerpp, dealerpp.cli, dealerpp.deals
from dealerpp.deals import model
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.formats import giblib
from dealerpp.deals.formats import hex as hex26
from dealerpp.deals.formats import pbn
script = "generate 100\\nproduce 1\\nn = shape{north, 5xxx}\\ncondition n && hcp(north) > 10\\naction printoneline\\n"
sys.stdin = io.TextIOWrapper(io.BytesIO(script.encode()))
status = dealerpp.cli.main(["-"])
sys.stdout.flush()
print(status, "numpy" in sys.modules)
"""


def run(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_import_and_preprocess_leave_numpy_out() -> None:
    assert run(PREPROCESS) == "0 False"


def test_convert_without_fast_path_leaves_numpy_out(tmp_path: Path) -> None:
    source = tmp_path / "in.hex"
    source.write_text("F2F25B5CC55E31928E2E32C949\n")
    code = ("import sys; from dealerpp.cli import main; "
            "main(['convert', '-q', sys.argv[1], sys.argv[2], '--to', 'dup']); "
            "print('numpy' in sys.modules)")
    assert run(code, str(source), str(tmp_path / "out.txt")) == "False"


def test_convert_with_fast_path_uses_numpy(tmp_path: Path) -> None:
    source = tmp_path / "in.hex"
    source.write_text("F2F25B5CC55E31928E2E32C949\n")
    code = ("import sys; from dealerpp.cli import main; "
            "main(['convert', '-q', sys.argv[1], sys.argv[2]]); "
            "print('dealerpp.deals.bulk.stream' in sys.modules)")
    assert run(code, str(source), str(tmp_path / "out.gib")) == "True"
    assert (tmp_path / "out.gib").read_text() == (
        "QJ97.QJ92.T832.T 5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874\n")
