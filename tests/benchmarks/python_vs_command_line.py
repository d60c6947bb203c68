#!/usr/bin/python3
"""The same sweep from Python (rematlens.sweep, into a DataFrame) and from the command line
(rematlens sweep, records to a file), side by side: paired runs, alternating, wall time each.
Also times reading InceptionV4's bundled map (125,000 intervals) into a DataFrame.

Run by hand on a Release build, from the repository:

    cmake --build build/release --target rematlens _rematlens
    PYTHONPATH=build/release/python /usr/bin/python3 tests/benchmarks/python_vs_command_line.py \\
        [--trace PATH] [--grid 0.10:1.00:0.01] [--threads 1] [--pairs 5]

The trace defaults to the public LSTM (REMATLENS_SHARED_DIR or ../shared), else traces/lstm.log.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import rematlens

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(SOURCE, "build", "release", "bin", "rematlens")
LSTM = "lstm-128-11000000000.0-2020-10-1-16-38-52-default.log"


def default_trace():
    shared = os.environ.get("REMATLENS_SHARED_DIR", os.path.join(os.path.dirname(SOURCE), "shared"))
    public = os.path.join(shared, "traces", "dtr-2020", LSTM)
    return public if os.path.exists(public) else os.path.join(SOURCE, "traces", "lstm.log")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", default=default_trace())
    parser.add_argument("--grid", default="0.10:1.00:0.01", help="FROM:TO:STEP")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--binary", default=BINARY)
    args = parser.parse_args()
    start, stop, step = args.grid.split(":")
    command, module = [], []
    with tempfile.TemporaryDirectory() as folder:
        for pair in range(args.pairs):
            out = os.path.join(folder, "sweep%d.jsonl" % pair)
            began = time.perf_counter()
            subprocess.run([args.binary, "sweep", args.trace, "--from", start, "--to", stop, "--step", step,
                            "--threads", str(args.threads), "--out", out], check=True, capture_output=True)
            command.append(time.perf_counter() - began)
            began = time.perf_counter()
            runs = rematlens.sweep(args.trace, start, stop, step, threads=args.threads, progress=False)
            module.append(time.perf_counter() - began)
    print("%s, sweep %s, %d thread(s), %d runs, %d pairs" % (os.path.basename(args.trace), args.grid, args.threads,
                                                            len(runs), args.pairs))
    print("  command line  median %.3f s  (%s)" % (statistics.median(command), " ".join("%.3f" % t for t in command)))
    print("  python        median %.3f s  (%s)" % (statistics.median(module), " ".join("%.3f" % t for t in module)))
    print("  python / command line: %.3f" % (statistics.median(module) / statistics.median(command)))
    bundled = os.path.join(SOURCE, "atlas", "maps", "inceptionv4.jsonl.gz")
    began = time.perf_counter()
    m = rematlens.read_map(bundled)
    print("read_map(inceptionv4.jsonl.gz): %d intervals, %d holes in %.3f s" % (len(m.intervals), len(m.holes),
                                                                                  time.perf_counter() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
