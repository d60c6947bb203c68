#!/usr/bin/python3
"""One replay with unmodified simrd and with RematLens, side by side on this machine: DTR, eager
runtime, overhead limit 2, each public trace's budget ratios as bench_replay registers them.

simrd is imported from a checkout of uwsampl/dtr-prototype (its `simrd` folder) and only run;
RematLens's time is bench_replay's median. Run by hand on a Release build, from the repository:

    cmake --build build/release --target bench_replay
    /usr/bin/python3 tests/benchmarks/simrd_side_by_side.py --simrd PATH/dtr-prototype/simrd \\
        [--trace resnet32] [--ratios 0.2 0.3 0.5] [--repeats 3]

Traces come from REMATLENS_SHARED_DIR or shared/ beside the repository (public_trace_files.py).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

from public_trace_files import REPO, resolve_traces

BENCH = REPO / "build" / "release" / "bin" / "bench_replay"
OVERHEAD_LIMIT = 2.0  # bench_replay's


def simrd_seconds(simrd_dir, log, ratios, repeats):
    """simrd's wall seconds per replay, per ratio."""
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
            runtime = RuntimeV2EagerOptimized(int(memory * ratio), DTR(), remat_limit=compute * (OVERHEAD_LIMIT - 1),
                                              stats=False, trace=False)
            started = time.perf_counter()
            try:
                callback(runtime)
            except (MemoryError, RematExceededError):
                pass
            times[ratio].append(time.perf_counter() - started)
    return times


def rematlens_seconds(short, shared, ratios, repeats):
    """bench_replay's median wall seconds per replay, per ratio, on the traces in shared."""
    names = "|".join(f"{r:.1f}" for r in ratios)
    out = subprocess.run([BENCH, f"--benchmark_filter=replay_dtr/{short}/({names})$",
                          f"--benchmark_repetitions={repeats}", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True,
                         env={**os.environ, "REMATLENS_SHARED_DIR": str(shared)})
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
    if not BENCH.exists():
        sys.exit(f"{BENCH} not built (cmake --build build/release --target bench_replay)")
    [(short, log)] = resolve_traces([args.trace], "simrd_side_by_side")
    simrd = simrd_seconds(args.simrd, log, args.ratios, args.repeats)
    ours = rematlens_seconds(short, log.parents[2], args.ratios, args.repeats)
    print(f"{'ratio':>5}  {'simrd (median, range)':>28}  {'RematLens':>10}  {'factor':>7}")
    for ratio in args.ratios:
        s = simrd[ratio]
        if ratio not in ours:
            sys.exit(f"bench_replay has no replay_dtr/{short}/{ratio:.1f}")
        factor = statistics.median(s) / ours[ratio]
        print(f"{ratio:5.1f}  {statistics.median(s):8.3f} s ({min(s):.3f}-{max(s):.3f} s)  "
              f"{ours[ratio] * 1000:7.3f} ms  {factor:6.0f}x")


if __name__ == "__main__":
    main()
