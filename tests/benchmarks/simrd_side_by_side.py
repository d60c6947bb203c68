#!/usr/bin/python3
"""One replay with unmodified simrd and with RematLens, side by side on this machine: DTR, eager
runtime, overhead limit 2, each public trace's budget ratios as bench_replay registers them.

simrd is imported from a checkout of uwsampl/dtr-prototype (its `simrd` folder) and only run;
RematLens's time is bench_replay's median. Run by hand on a Release build, from the repository:

    cmake --build build/release --target bench_replay
    /usr/bin/python3 tests/benchmarks/simrd_side_by_side.py --simrd PATH/dtr-prototype/simrd \\
        [--trace resnet32] [--ratios 0.2 0.3 0.5] [--repeats 3]

Traces come from REMATLENS_SHARED_DIR or ../shared beside the source tree.
"""

import argparse
import glob
import json
import math
import os
import statistics
import subprocess
import sys
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(SOURCE, "build", "release", "bin", "bench_replay")


def shared_dir():
    return os.environ.get("REMATLENS_SHARED_DIR", os.path.join(os.path.dirname(SOURCE), "shared"))


def trace_path(short):
    found = glob.glob(os.path.join(shared_dir(), "traces", "dtr-2020", short + "-*.log"))
    if not found:
        sys.exit(f"no public trace named {short}- in {shared_dir()}/traces/dtr-2020")
    return found[0]


def simrd_seconds(simrd_dir, log, ratios, repeats):
    """simrd's wall seconds per replay, per ratio (and how each run ended)."""
    sys.path.insert(0, simrd_dir)
    from simrd.heuristic import DTR, Heuristic
    from simrd.parse import parse_file
    from simrd.runtime import RuntimeV1, RuntimeV2EagerOptimized
    from simrd.runtime.v2 import RematExceededError

    with open(log) as f:
        callback = parse_file(f, start=True).get_closure()
    baseline = RuntimeV1(math.inf, Heuristic(), stats=False, trace=False)
    callback(baseline)
    memory = baseline.telemetry.summary["max_memory"]
    compute = baseline.telemetry.summary["model_compute"]
    times = {}
    for ratio in ratios:
        times[ratio] = []
        for _ in range(repeats):
            runtime = RuntimeV2EagerOptimized(int(memory * ratio), DTR(), remat_limit=compute * 1.0,
                                              stats=False, trace=False)
            started = time.perf_counter()
            try:
                callback(runtime)
            except (MemoryError, RematExceededError):
                pass
            times[ratio].append(time.perf_counter() - started)
    return times


def rematlens_seconds(short, ratios, repeats):
    """bench_replay's median wall seconds per replay, per ratio."""
    names = "|".join(f"{r:.1f}" for r in ratios)
    out = subprocess.run([BENCH, f"--benchmark_filter=replay_dtr/{short}/({names})$",
                          f"--benchmark_repetitions={repeats}", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True, env={**os.environ, "REMATLENS_SHARED_DIR": shared_dir()})
    medians = {}
    for b in json.loads(out.stdout)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            ratio = float(b["run_name"].rsplit("/", 1)[1])
            medians[ratio] = b["real_time"] / 1000.0  # reported in milliseconds
    return medians


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simrd", required=True, help="the simrd folder of a dtr-prototype checkout")
    parser.add_argument("--trace", default="resnet32", help="short name of a public trace")
    parser.add_argument("--ratios", type=float, nargs="+", default=[0.2, 0.3, 0.5])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.simrd, "simrd")):
        sys.exit(f"{args.simrd}: not the simrd folder of a dtr-prototype checkout (no simrd/ inside)")
    if not os.path.exists(BENCH):
        sys.exit(f"{BENCH} not built (cmake --build build/release --target bench_replay)")
    simrd = simrd_seconds(args.simrd, trace_path(args.trace), args.ratios, args.repeats)
    ours = rematlens_seconds(args.trace, args.ratios, args.repeats)
    print(f"{'ratio':>5}  {'simrd (median, range)':>28}  {'RematLens':>10}  {'factor':>7}")
    for ratio in args.ratios:
        s = simrd[ratio]
        if ratio not in ours:
            sys.exit(f"bench_replay has no replay_dtr/{args.trace}/{ratio:.1f}")
        factor = statistics.median(s) / ours[ratio]
        print(f"{ratio:5.1f}  {statistics.median(s):8.3f} s ({min(s):.3f}-{max(s):.3f} s)  "
              f"{ours[ratio] * 1000:7.3f} ms  {factor:6.0f}x")


if __name__ == "__main__":
    main()
