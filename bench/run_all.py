"""Every benchmark in one run: ``python bench/run_all.py [--quick] [--huge]``.

Each benchmark prints its own ratios against the alternative it measures in
the same run (the Perl dealer.dpp, `python3 -c pass`, endplay).

    bench_shapes.py      shape compiler per term vs the Perl tool; terms emitted
    bench_preprocess.py  1000-line and one-line scripts vs the Perl tool and python
    bench_importtime.py  what a one-shape script imports, against its budget
    bench_check.py       `dealerpp check` on a 1000-line script
    bench_bulk.py        bulk deal conversion, deals/s, vs endplay
    bench_machines.py    .ber/.bri/.dge codecs, deals/s, vs their per-deal path
    bench_scaling.py     shape compiler cost against input size (10x input: <= 13x time)
    bench_scaling_script.py  preprocess + check against script size, to 50 MB
    bench_floods.py      error floods of 1, 10, 100 MB: time and stderr bytes
    bench_pbn.py         PBN reading and copying, vs endplay's pbn.load
    bench_model.py       reading into Deal objects, vs the tree before issue 25; hand values
    bench_lsp.py         the language server: edit -> diagnostics, memory (extra lsp)
    bench_lin.py         LIN reading (20,000 boards, whole process), vs endplay's LIN parser
    bench_convert.py     every conversion path (100,000 deals, whole process), vs bulk .deals -> hex

--quick uses smaller sizes (300 terms, 100,000 deals); --huge adds the
10,000,000-deal round trip of bench_bulk.py.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--huge", action="store_true")
    options = parser.parse_args()
    runs = [
        ["bench_shapes.py", *(["--terms", "300"] if options.quick else [])],
        ["bench_preprocess.py"],
        ["bench_importtime.py"],
        ["bench_check.py"],
        ["bench_scaling.py"],
        ["bench_floods.py", *(["--sizes", "1,10"] if options.quick else [])],
        ["bench_scaling_script.py", *(["--sizes", "1,10"] if options.quick else [])],
        ["bench_bulk.py", *(["--deals", "100000"] if options.quick else []),
         *(["--huge"] if options.huge else [])],
        ["bench_machines.py", *(["--deals", "100000"] if options.quick else [])],
        ["bench_pbn.py", *(["--games", "20000", "--repeat", "1"] if options.quick else [])],
        ["bench_model.py", *(["--games", "10000", "--deals", "100000", "--repeat", "1"]
                             if options.quick else [])],
        ["bench_lsp.py", *(["--documents", "50"] if options.quick else [])],
        ["bench_lin.py", *(["--boards", "5000", "--repeat", "1"] if options.quick else [])],
        ["bench_convert.py", *(["--deals", "20000"] if options.quick else [])],
    ]
    status = 0
    for script, *args in runs:
        print(f"\n######## {script} {' '.join(args)}", flush=True)
        done = subprocess.run([sys.executable, str(HERE / script), *args], check=False)
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
