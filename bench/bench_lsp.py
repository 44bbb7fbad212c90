"""The language server, driven over its pipes as an editor drives it.

    python bench/bench_lsp.py [--lines N] [--edits N] [--documents N]

1. Latency: a script of 1,000 lines is opened, then edited 20 times (one
   number changed, an incremental change); each edit's time runs from
   sending ``didChange`` to receiving the diagnostics of that version.
   Goal: median under 100 ms. Beside it, in the same run, the alternative
   an editor would otherwise have: ``check_text`` on the same text in this
   process and the command ``dealerpp check FILE`` started afresh for each
   edit; and the server's own incremental check (``editor.incremental``)
   in this process, on the same edits (the floor: the server cannot beat
   the check it runs).
2. Memory: the server's resident size with 1, 50 and N documents of that
   size open, and after closing them all.

Run it on one core (``taskset -c 0 python bench/bench_lsp.py``) and on two.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_check import script  # noqa: E402
from tests.editor.lsp_client import Client, span  # noqa: E402

GOAL_SECONDS = 0.100


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def edit_latencies(client: Client, text: str, edits: int) -> tuple[list[float], float]:
    """The time of each edit, and the server's CPU time over all of them."""
    uri = "file:///bench/latency.dl"
    client.open(uri, text)
    client.diagnostics(uri, 1, timeout=120)
    lines = text.split("\n")
    times = []
    cpu_before = cpu_seconds(client.process.pid)
    for number in range(edits):
        line = 10 + number * (len(lines) - 20) // edits
        column = lines[line].index("=") + 2
        version = number + 2
        start = time.perf_counter()
        client.change(uri, version, [{"range": span(line, column, line, column),
                                      "text": "1 + "}])
        client.diagnostics(uri, version, timeout=120)
        times.append(time.perf_counter() - start)
    return times, cpu_seconds(client.process.pid) - cpu_before


def edited_texts(text: str, edits: int) -> list[str]:
    """The texts the server sees after each of ``edit_latencies``'s edits."""
    lines = text.split("\n")
    texts = []
    for number in range(edits):
        line = 10 + number * (len(lines) - 20) // edits
        column = lines[line].index("=") + 2
        lines[line] = lines[line][:column] + "1 + " + lines[line][column:]
        texts.append("\n".join(lines))
    return texts


def incremental_in_process(text: str, edits: int) -> tuple[list[float], list[float]]:
    from dealerpp.editor.incremental import IncrementalCheck

    check = IncrementalCheck("latency.dl")
    check.check(text)
    times, cpu = [], []
    for edited in edited_texts(text, edits):
        start, cpu_start = time.perf_counter(), time.process_time()
        check.check(edited)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
    return times, cpu


def check_in_process(text: str, edits: int) -> tuple[list[float], list[float]]:
    from dealerpp.script.check import check_text

    check_text(text, "latency.dl")
    times, cpu = [], []
    for _ in range(edits):
        start, cpu_start = time.perf_counter(), time.process_time()
        check_text(text, "latency.dl")
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - cpu_start)
    return times, cpu


def check_command(text: str, edits: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "latency.dl"
        path.write_text(text)
        times = []
        for _ in range(edits):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "dealerpp", "check", str(path)],
                           capture_output=True, check=False, cwd=ROOT)
            times.append(time.perf_counter() - start)
    return times


def memory(client: Client, text: str, documents: int) -> list[tuple[str, int]]:
    pid = client.process.pid
    rows = [("started, one document checked", resident_kib(pid))]
    for index in range(documents):
        uri = f"file:///bench/many/{index}.dl"
        client.open(uri, text.replace("generate", f"// {index}\ngenerate", 1))
        client.diagnostics(uri, timeout=120)
        if index + 1 in (50, documents):
            rows.append((f"{index + 1} documents open", resident_kib(pid)))
    for index in range(documents):
        client.notify("textDocument/didClose",
                      {"textDocument": {"uri": f"file:///bench/many/{index}.dl"}})
    for index in range(documents):
        client.diagnostics(f"file:///bench/many/{index}.dl", timeout=120)
    rows.append(("all closed again", resident_kib(pid)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--documents", type=int, default=200)
    options = parser.parse_args()
    text = script(options.lines)
    client = Client([sys.executable, "-m", "dealerpp", "lsp"])
    try:
        client.initialize({})
        server, server_cpu = edit_latencies(client, text, options.edits)
        rows = memory(client, text, options.documents)
    finally:
        client.close()
    in_process, in_process_cpu = check_in_process(text, options.edits)
    incremental, incremental_cpu = incremental_in_process(text, options.edits)
    command = check_command(text, options.edits)
    median = statistics.median(server)
    print(f"{options.lines}-line script, {options.edits} edits, median (min-max) ms:")
    for name, times in (("server: edit -> diagnostics", server),
                        ("incremental check in process", incremental),
                        ("check_text in process", in_process),
                        ("dealerpp check FILE, a process per edit", command)):
        print(f"  {name:42} {1000 * statistics.median(times):7.1f} "
              f"({1000 * min(times):.1f}-{1000 * max(times):.1f})")
    print(f"  CPU time an edit: server {1000 * server_cpu / options.edits:.1f} ms, "
          f"incremental check {1000 * statistics.median(incremental_cpu):.1f} ms, "
          f"check_text {1000 * statistics.median(in_process_cpu):.1f} ms (load-proof figures: "
          f"on a shared machine the wall times above include waiting for a core)")
    print(f"  load average at the end: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print(f"  server / check_text: {median / statistics.median(in_process):.2f}x; "
          f"server / dealerpp check: {median / statistics.median(command):.2f}x")
    print(f"  goal: median under {1000 * GOAL_SECONDS:.0f} ms: "
          f"{'met' if median < GOAL_SECONDS else 'NOT met'}")
    print(f"server memory ({len(text):,} characters a document):")
    for name, kib in rows:
        print(f"  {name:32} {kib / 1024:7.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
