#!/usr/bin/python3
"""The hole atlas: exact maps of the eight public DTR traces, and docs/atlas.md made from them.

Every step resumes: the 0.001 grid and each map are `--out` files that rematlens extends where
they stop, so the script can be stopped at any time (or given --minutes) and run again.

    scripts/atlas.py run [--minutes M] [--threads N] [--mpi N] [--only NAME ...] [--window-only]
                         [--allocator caching | --policies [POLICY ...]]
    scripts/atlas.py doc [--out docs/atlas.md] [--pack atlas/maps] [--allocator caching | --policies]
    scripts/atlas.py time [--threads N] [--only NAME ...] [--policies [POLICY ...]]

Per trace (DTR, eager runtime, overhead limit 2): the 0.001 grid over 0.10-1.00 first, which
gives the window (0.01 below the grid's first pass to 0.01 above its stable point); then the
exact map of the window; then of the whole 0.10-1.00 range, into the same map file. The CPU time
of every rematlens process is added to a ledger beside the maps, so the document can say what a
complete map cost (or, where incomplete, project it from the interval widths next to each gap).
`doc` also gzips each map into atlas/maps/, where the window finds it for the trace's SHA-256.

With --policies [NAME ...], `run` maps each trace under the other heuristics the DTR paper
compares (DTREqClass, DTRLocal, MSPS, LRU, LargestStorage, RandomStorage with seeds 0, 1 and 2)
into NAME.POLICY.jsonl, each with its ledger (CPU, replays, joins); `doc --policies` writes the
matrix that opens the document and packs those maps, with each policy map's summary and hole
mechanisms (NAME.POLICY.summary.json), from which the matrix is written again where a map too
large to pack has no working copy. A map missing its working copy starts from the packed one, so
an incomplete policy atlas resumes on a fresh checkout.

`time` walks policy maps again from nothing (DTR's too, over 0.10-1.00), one after another, into
scratch files: what the whole policy atlas costs with the build at hand, as opposed to the
ledgers' sums over the builds that made the maps. Each walk's records must equal the kept map's
(or, for a map too large to pack, its summary the kept summary and its records those of the walk
before, by digest), else the script stops; its CPU and wall seconds, replays, joins, thread count,
records' digest and the build's commit replace the ledger's `walk` entry, which `doc --policies`
reports.

With --allocator caching, `run` maps each trace under PyTorch's caching allocator model instead
(on-failure eviction, default options) over the whole 0.10-1.00 range, into NAME.caching.jsonl
beside the byte sum's map, with a ledger of its own; `doc --allocator caching` writes the
document's last section (from MODEL_MARKER on; plain `doc` keeps it) setting the two side by
side, reading the byte sum's maps from the packed atlas/maps when their working copies are gone,
and packs the model's maps beside them.

Standard library only; run with the system's python3.
"""

import argparse
import bisect
import gzip
import hashlib
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHECKSUMS = REPO / "traces" / "dtr-2020.sha256"
SETTINGS = ["--policy", "DTR", "--runtime", "eager", "--overhead-limit", "2"]
RANGE = ("0.10", "1.00")
# The allocator models the atlas maps besides the byte sum, with the options `map` takes for them.
MODELS = {"caching": ["--allocator", "caching", "--eviction", "on-failure"]}
# The policy rows of the policy atlas (DTR's maps are the atlas's own), with the options `map` takes.
POLICIES = {"DTREqClass": ["--policy", "DTREqClass"], "DTRLocal": ["--policy", "DTRLocal"], "MSPS": ["--policy", "MSPS"],
            "LRU": ["--policy", "LRU"], "LargestStorage": ["--policy", "LargestStorage"],
            **{f"RandomStorage-{seed}": ["--policy", "RandomStorage", "--seed", str(seed)] for seed in (0, 1, 2)}}
POLICY_TITLES = {"DTR": "DTR", "DTREqClass": "DTR-EqClass", "DTRLocal": "DTR-local", "MSPS": "MSPS", "LRU": "LRU",
                 "LargestStorage": "largest", **{f"RandomStorage-{seed}": f"random {seed}" for seed in (0, 1, 2)}}
SHORT = {"unet": "U-Net", "resnet32": "ResNet-32", "inceptionv4": "InceptionV4", "tv_densenet121": "DenseNet-121",
         "transformer": "Transformer", "unroll_gan": "unrolled GAN", "treelstm": "TreeLSTM", "lstm": "LSTM"}


def settings_for(variant):
    """The map's options: DTR under the byte sum, under an allocator model, or another policy."""
    if variant in POLICIES:
        return POLICIES[variant] + SETTINGS[2:]
    return SETTINGS + MODELS.get(variant, [])


def fail(message):
    print("atlas: " + message, file=sys.stderr)
    sys.exit(2)


def public_traces():
    """(short name, file name, SHA-256) of the eight public traces, from the project's checksums."""
    traces = []
    for line in CHECKSUMS.read_text().splitlines():
        if line and not line.startswith("#"):
            sha, name = line.split()
            traces.append((name.split("-")[0], name, sha))
    return traces


def default_trace_dir():
    shared = os.environ.get("REMATLENS_SHARED_DIR")
    if shared:
        return Path(shared) / "traces" / "dtr-2020"
    beside = REPO.parent / "shared" / "traces" / "dtr-2020"
    if beside.is_dir():
        return beside
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "RematLens" / "traces" / "dtr-2020"


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Ledger:
    """CPU and wall seconds that rematlens spent on one trace's grid and map, over all runs."""

    def __init__(self, path):
        self.path = path
        self.data = json.loads(path.read_text()) if path.exists() else {}

    def add(self, part, cpu, wall, walked=None):
        """walked: the replays and joins a map printed, when it printed them."""
        entry = self.data.setdefault(part, {"cpu_seconds": 0.0, "wall_seconds": 0.0, "runs": 0})
        entry["cpu_seconds"] += cpu
        entry["wall_seconds"] += wall
        entry["runs"] += 1
        for key, value in (walked or {}).items():
            entry[key] = entry.get(key, 0) + value
        self.save()

    def put(self, part, entry):
        """Replaces part's entry (a measurement that stands alone, not a sum over runs)."""
        self.data[part] = entry
        self.save()

    def save(self):
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=1) + "\n")
        tmp.replace(self.path)

    def cpu(self, part):
        return self.data.get(part, {}).get("cpu_seconds", 0.0)


def run_limited(command, deadline, ledger, part):
    """Runs rematlens until it finishes or the deadline passes (then Ctrl-C, as a user would:
    what it mapped is kept). Adds its CPU time to the ledger; True when it finished. Stopping the
    script itself (Ctrl-C, SIGTERM) stops rematlens the same way and records its run before exiting."""
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    interrupted = stopped = False
    while True:
        try:
            out, err = process.communicate(timeout=1.0)
            break
        except subprocess.TimeoutExpired:
            if deadline is not None and time.monotonic() > deadline and not interrupted:
                process.send_signal(signal.SIGINT)
                interrupted = True
        except KeyboardInterrupt:
            # rematlens saves what it mapped on SIGINT (a second one changes nothing): wait for
            # it, so that the CPU it spent is in the ledger.
            process.send_signal(signal.SIGINT)
            interrupted = stopped = True
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ledger.add(part, cpu, time.monotonic() - started, walked_by(out))
    if stopped:
        print("atlas: stopped; what was mapped is kept, and its CPU time recorded: run again to continue",
              file=sys.stderr)
        sys.exit(130)
    if process.returncode not in (0, 130) and not interrupted:
        fail(" ".join(command) + " failed:\n" + err)
    return process.returncode == 0 and not interrupted, out


def interrupt_on_terminate():
    """SIGTERM (a job scheduler's stop, kill) ends a run as Ctrl-C does."""
    def raise_interrupt(*_):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, raise_interrupt)


def walked_by(out):
    """The replays and joins of a map's summary ("243 (266 replays, 252 of them joined ...)")."""
    found = re.search(r"\((\d+) replays, (\d+) of them joined", out or "")
    return {"replays": int(found.group(1)), "joins": int(found.group(2))} if found else None


def grid_records(path):
    records = []
    if path.exists():
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "ratio" in record and "result" in record:
                records.append(record)
    return sorted(records, key=lambda r: r["budget"])


def window_of(grid):
    """(first pass, stable from, window from, window to) as ratios of the 0.001 grid."""
    passes = [r["result"] == "pass" for r in grid]
    if not any(passes):
        return None
    first = next(r["ratio"] for r in grid if r["result"] == "pass")
    stable_index = len(grid)
    while stable_index > 0 and passes[stable_index - 1]:
        stable_index -= 1
    stable = grid[stable_index]["ratio"]
    low = max(float(RANGE[0]), round(first - 0.01, 3))
    high = min(float(RANGE[1]), round(stable + 0.01, 3))
    return first, stable, low, high


class Atlas:
    def __init__(self, args):
        self.binary = args.rematlens
        self.root = Path(args.dir)
        self.traces_dir = Path(args.traces) if args.traces else default_trace_dir()
        self.packed = getattr(args, "pack", None) or str(REPO / "atlas" / "maps")

    def paths(self, name, model=None):
        stem = name if model is None else name + "." + model
        return (self.root / "grid" / (name + ".jsonl"), self.root / "maps" / (stem + ".jsonl"),
                Ledger(self.root / (stem + ".ledger.json")))

    def trace_path(self, file_name, sha):
        path = self.traces_dir / file_name
        if not path.exists():
            fail(str(path) + ": missing (rematlens traces download, or --traces DIR)")
        if sha256_of(path) != sha:
            fail(str(path) + ": SHA-256 differs from traces/dtr-2020.sha256; not the public trace")
        return str(path)

    def map_command(self, trace, out, low, high, args, summary=False, model=None):
        """model: an allocator model (MODELS) or a policy row (POLICIES), or None for DTR's sum."""
        command = [self.binary, "map", trace, "--from", low, "--to", high, "--out", str(out)] + settings_for(model)
        if summary:
            return command + ["--summary-only", "--json"]
        command += ["--threads", str(args.threads)]
        if args.mpi > 1:
            command = ["mpirun", "--oversubscribe", "-np", str(args.mpi)] + (
                ["--allow-run-as-root"] if os.geteuid() == 0 else []) + command
        return command

    def summary(self, trace, out, low, high, model=None):
        if not out.exists():
            return None
        _, text = run_limited(self.map_command(trace, out, low, high, None, summary=True, model=model), None,
                              _NullLedger(), "summary")
        return json.loads(text)["maps"][0]

    def restore(self, map_path, ledger):
        """On a fresh checkout, the packed map and ledger become the working copies, so that an
        incomplete map resumes where it stopped instead of starting over."""
        packed = Path(self.packed) / (map_path.stem + ".jsonl.gz")
        if not map_path.exists() and packed.exists():
            map_path.write_bytes(gzip.decompress(packed.read_bytes()))
            packed_ledger = Path(self.packed) / ledger.path.name
            if not ledger.path.exists() and packed_ledger.exists():
                ledger.path.write_text(packed_ledger.read_text())
                ledger.data = json.loads(ledger.path.read_text())

    def run_variants(self, args, variants):
        """The whole range of every trace under each allocator model or policy row, resumable
        like the rest."""
        for name, file_name, sha in public_traces():
            if args.only and name not in args.only:
                continue
            trace = self.trace_path(file_name, sha)
            for variant in variants:
                _, map_path, ledger = self.paths(name, variant)
                map_path.parent.mkdir(parents=True, exist_ok=True)
                self.restore(map_path, ledger)
                deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
                command = self.map_command(trace, map_path, RANGE[0], RANGE[1], args, model=variant)
                print(f"{name}: the exact map, {variant}: " + " ".join(command), flush=True)
                done, _ = run_limited(command, deadline, ledger, "map")
                if not done:
                    print(f"{name}: {variant} stopped at the time limit; run again to continue", flush=True)

    def time_walks(self, args, variants):
        """Each map of the variants walked again from nothing into scratch, checked against the
        kept map and timed: the ledger's `walk` entry."""
        import tempfile
        threads = args.threads or os.cpu_count()
        for name, file_name, sha in public_traces():
            if args.only and name not in args.only:
                continue
            trace = self.trace_path(file_name, sha)
            for variant in variants:
                key = None if variant == "DTR" else variant
                with tempfile.TemporaryDirectory() as scratch:
                    out = Path(scratch) / f"{name}.{variant}.walk.jsonl"
                    measured = _MeasuredRun()
                    command = self.map_command(trace, out, RANGE[0], RANGE[1], args, model=key)
                    print(f"{name}: {variant} walked again: " + " ".join(command), flush=True)
                    run_limited(command, None, measured, "walk")
                    digest = self.check_walk(name, key, trace, out, Path(scratch))
                    entry = dict(measured.entry, threads=threads, records_digest=digest,
                                 rematlens_commit=provenance_of(out).get("rematlens_commit"))
                ledger_of(self, name, key).put("walk", entry)
                print(f"{name}: {variant}: {entry['cpu_seconds']:.0f} CPU s, {entry['wall_seconds']:.0f} s wall, "
                      "records as kept", flush=True)

    def check_walk(self, name, key, trace, out, scratch):
        """Stops the script when a walk's records are not the kept map's (or, where the map was too
        large to pack, its summary is not the kept summary or its records not the walk before's);
        else the digest of the walk's records (each map file is read once)."""
        variant = key or "DTR"
        walked = record_digests(out)
        digest = records_digest(walked)
        kept = sum_map_path(self, name, scratch, key)
        if kept is not None:
            differing = records_differing(record_digests(kept), walked)
            if differing:
                fail(f"{name} {variant}: {differing} records differ from the kept map {kept.name}")
            return digest
        kept_one, _ = kept_summary(self, name, key)
        if kept_one is None:
            fail(f"{name} {variant}: no kept map or summary to check the walk against")
        comparable = lambda summary: {k: v for k, v in summary.items() if k not in ("seconds", "threads")}
        if comparable(self.summary(trace, out, *RANGE, model=key)) != comparable(kept_one):
            fail(f"{name} {variant}: the walk's summary differs from the kept one")
        before = ledger_of(self, name, key).data.get("walk", {}).get("records_digest")
        if before is not None and before != digest:
            fail(f"{name} {variant}: the walk's records differ from the walk before ({before})")
        return digest

    def run(self, args):
        if args.allocator:
            return self.run_variants(args, [args.allocator])
        if args.policies is not None:
            return self.run_variants(args, args.policies or list(POLICIES))
        deadline_for = lambda: time.monotonic() + args.minutes * 60 if args.minutes else None
        for name, file_name, sha in public_traces():
            if args.only and name not in args.only:
                continue
            trace = self.trace_path(file_name, sha)
            grid_path, map_path, ledger = self.paths(name)
            grid_path.parent.mkdir(parents=True, exist_ok=True)
            map_path.parent.mkdir(parents=True, exist_ok=True)
            deadline = deadline_for()
            print(f"{name}: the 0.001 grid", flush=True)
            done, _ = run_limited([self.binary, "sweep", trace, "--from", RANGE[0], "--to", RANGE[1], "--step", "0.001",
                                   "--threads", str(args.threads), "--out", str(grid_path)] + SETTINGS, deadline,
                                  ledger, "grid")
            window = window_of(grid_records(grid_path)) if done else None
            parts = []
            if window:
                parts.append(("window", f"{window[2]:.3f}", f"{window[3]:.3f}"))
            if not args.window_only:
                parts.append(("map", RANGE[0], RANGE[1]))
            for part, low, high in parts:
                command = self.map_command(trace, map_path, low, high, args)
                print(f"{name}: the exact map of {low}-{high} ({part}): " + " ".join(command), flush=True)
                done, _ = run_limited(command, deadline, ledger, "map")
                if not done:
                    print(f"{name}: stopped at the time limit; run again to continue", flush=True)
                    break


class _NullLedger:
    """For summaries, which replay nothing."""

    def add(self, *_):
        pass


class _MeasuredRun:
    """What run_limited measured of one run, kept instead of added to a ledger."""

    def __init__(self):
        self.entry = {}

    def add(self, _part, cpu, wall, walked=None):
        self.entry = {"cpu_seconds": round(cpu, 2), "wall_seconds": round(wall, 2), **(walked or {})}


def provenance_of(map_path):
    with open(map_path) as f:
        return json.loads(f.readline()).get("provenance", {})


def record_digests(path):
    """How many times each record of a map occurs, by digest (order and provenance aside)."""
    counts = {}
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if "provenance" in record:
                continue
            digest = hashlib.blake2b(json.dumps(record, sort_keys=True).encode(), digest_size=16).digest()
            counts[digest] = counts.get(digest, 0) + 1
    return counts


def records_differing(a, b):
    """How many records one map has that the other has not, from their record_digests."""
    return sum(abs(a.get(d, 0) - b.get(d, 0)) for d in a.keys() | b.keys())


def records_digest(counts):
    """One digest of all a map's records, whatever their order: a map too large to pack is checked
    record for record against the walk before through it (counts: record_digests)."""
    digest = hashlib.blake2b(digest_size=16)
    for record, count in sorted(counts.items()):
        digest.update(record + count.to_bytes(8, "little"))
    return digest.hexdigest()


def ratio(value):
    return f"{value:.6f}".rstrip("0").rstrip(".") if value is not None else "—"


def digits(value):
    return f"{value:,}"


def verdict_word(summary):
    """monotone, not monotone, or undetermined (budgets above the first pass still unmapped)."""
    if summary.get("monotone") is True:
        return "monotone"
    if summary.get("monotone") is False:
        return "not monotone"
    return "undetermined"


def results_inside(summary, hole):
    inside = set()
    for s in summary["stretches"]:
        if s["last"] >= hole["first_fail_byte"] and s["first"] <= hole["last_fail_byte"]:
            inside.add(s["result"])
    return ", ".join(sorted(inside))


def grid_view(grid, hole):
    seen = [r for r in grid if hole["first_fail_byte"] <= r["budget"] <= hole["last_fail_byte"]]
    if not seen:
        return "missed"
    return ", ".join(f"{r['ratio']:.3f} {r['result']}" for r in seen[:4]) + (" …" if len(seen) > 4 else "")


def unmapped_bytes(summary):
    return sum(u["last"] - u["first"] + 1 for u in summary.get("unmapped", []))


def projected_cpu_hours(summary, map_path, cpu_seconds):
    """CPU-hours still needed: each unmapped gap holds about as many intervals as its bytes over
    the mean width of the 50 mapped intervals on each side, at the mean CPU per interval so far."""
    records = []
    for line in map_path.read_text().splitlines():
        record = json.loads(line)
        if "lo" in record:
            records.append((record["lo"], record["hi"] if record.get("hi") is not None else record["lo"] + 1))
    records.sort()
    if not records or cpu_seconds <= 0:
        return None
    per_interval = cpu_seconds / len(records)
    expected = 0.0
    los = [lo for lo, _ in records]
    for gap in summary.get("unmapped", []):
        k = bisect.bisect_left(los, gap["first"])
        near = records[max(0, k - 50):k + 50]
        width = sum(hi - lo for lo, hi in near) / len(near)
        expected += (gap["last"] - gap["first"] + 1) / max(1.0, width)
    return expected * per_interval / 3600


MODEL_MARKER = "<!-- allocator models: written by scripts/atlas.py doc --allocator MODEL -->"
MODEL_TITLES = {"caching": "PyTorch's caching allocator"}


def kept_model_section(path):
    """What follows MODEL_MARKER in the document as it stands (empty when nothing does)."""
    if not path.exists():
        return ""
    text = path.read_text()
    at = text.find(MODEL_MARKER)
    return text[at:] if at >= 0 else ""


def overlaps(hole, others):
    return any(o["first_fail_byte"] <= hole["last_fail_byte"] and hole["first_fail_byte"] <= o["last_fail_byte"]
               for o in others)


def sum_map_path(atlas, name, scratch, variant=None):
    """A map (DTR's byte sum unless variant names another): the working copy, or the packed one
    unzipped into scratch."""
    _, map_path, _ = atlas.paths(name, variant)
    if map_path.exists():
        return map_path
    packed = Path(atlas.packed) / (map_path.stem + ".jsonl.gz")
    if not packed.exists():
        return None
    target = scratch / map_path.name
    target.write_bytes(gzip.decompress(packed.read_bytes()))
    return target


def ledger_of(atlas, name, variant=None):
    """The working ledger, or the packed one when the working copy is gone."""
    _, _, ledger = atlas.paths(name, variant)
    return ledger if ledger.path.exists() else Ledger(Path(atlas.packed) / ledger.path.name)


def sum_cpu_hours(atlas, name):
    ledger = ledger_of(atlas, name)
    return (ledger.cpu("map") + ledger.cpu("grid")) / 3600


POLICY_BEGIN = "<!-- policy atlas: written by scripts/atlas.py doc --policies -->"
POLICY_END = "<!-- end of the policy atlas -->"


def kept_policy_block(text):
    """The policy atlas block of the document as it stands (empty when there is none)."""
    begin, end = text.find(POLICY_BEGIN), text.find(POLICY_END)
    return text[begin:end + len(POLICY_END)] if begin >= 0 and end > begin else ""


def with_policy_block(text, block):
    """The document with its policy block replaced by block, or put right after the title."""
    kept = kept_policy_block(text)
    if kept:
        return text.replace(kept, block)
    title, newline, rest = text.partition("\n")
    return title + newline + "\n" + block + "\n" + rest


def hole_bytes(summary):
    return sum(h["width"] for h in summary["holes"])


def walk_counts(entry, intervals):
    """Replays and joins of a ledger entry ("—" where a run printed none), CPU per interval, CPU
    and wall time."""
    counted = lambda key: digits(entry[key]) if key in entry else "—"
    cpu = entry.get("cpu_seconds", 0.0)
    per_interval = f"{1000 * cpu / intervals:.2f} ms" if intervals else "—"
    return f"{counted('replays')} | {counted('joins')} | {per_interval} | {cpu:,.0f} s | {entry.get('wall_seconds', 0):,.0f} s"


def policy_row(name, variant, summary, cost, mechanisms):
    """cost: the ledger entry to report, the walk with one build where there is one."""
    mapped = "" if not summary.get("unmapped") else \
        f" ({100 * (1 - unmapped_bytes(summary) / (summary['to_byte'] - summary['from_byte'] + 1)):.1f}% mapped)"
    counts = {}
    for hole in summary["holes"]:
        m = mechanisms.get(hole["first_fail_byte"], "—")
        counts[m] = counts.get(m, 0) + 1
    named = ", ".join(f"{m} {n}" for m, n in sorted(counts.items(), key=lambda x: -x[1])) if counts else "—"
    return (f"| {SHORT[name]} | {POLICY_TITLES[variant]} | {len(summary['holes'])} | {digits(hole_bytes(summary))} | "
            f"{ratio(summary.get('first_pass_ratio'))} | {ratio(summary.get('stable_from_ratio'))} | "
            f"{verdict_word(summary)}{mapped} | {named} | {digits(summary['intervals'])} | "
            f"{walk_counts(cost, summary['intervals'])} |")


def walk_lines(walks, traces):
    """The policy atlas's cost with one build: wall seconds per map walked again (`time`). Where
    the walks are of several builds, the maps of all but the most used one are marked."""
    if not walks:
        return ["No map has been walked again with one build yet (`scripts/atlas.py time`)."]
    uses = {}
    for w in walks.values():
        build = (w.get("rematlens_commit") or "?")[:7]
        uses[build] = uses.get(build, 0) + 1
    builds = sorted(uses, key=lambda b: (-uses[b], b))
    marks = {b: "" if i == 0 else "†‡§¶"[min(i - 1, 3)] * (1 + max(0, i - 4)) for i, b in enumerate(builds)}
    threads = sorted({w.get("threads") for w in walks.values()})
    wall = sum(w["wall_seconds"] for w in walks.values())
    cpu = sum(w["cpu_seconds"] for w in walks.values())
    count = len(traces) * len(POLICY_TITLES)
    named = builds[0] + "".join(f", {b} ({marks[b]})" for b in builds[1:])
    lines = [f"Walked again from nothing, one map after another, by `scripts/atlas.py time` with build "
             f"{named} ({'/'.join(map(str, threads))} threads): "
             f"{len(walks)} of the {count} maps took **{wall / 60:.1f} minutes** of wall time and "
             f"{cpu / 3600:.2f} CPU-hours, each checked against the kept map (record for record; by its summary "
             "where the map is too large to pack). Wall seconds per map:", "",
             "| trace | " + " | ".join(POLICY_TITLES.values()) + " | all |",
             "|---|" + "---|" * (len(POLICY_TITLES) + 1)]

    def cell(walk):
        if not walk:
            return "—"
        return f"{walk['wall_seconds']:,.0f}" + marks[(walk.get("rematlens_commit") or "?")[:7]]

    for name in traces:
        cells = [walks.get((name, v)) for v in POLICY_TITLES]
        walked = [c["wall_seconds"] for c in cells if c]
        lines.append(f"| {SHORT[name]} | " + " | ".join(cell(c) for c in cells) + f" | {sum(walked):,.0f} |")
    return lines


def policy_words(holes_of, traces):
    """Which policies never have holes and which always do, on the traces every policy has mapped."""
    complete = [t for t in traces if all((t, v) in holes_of for v in POLICY_TITLES)]
    if not complete:
        return ["No trace is mapped under every policy yet."]
    never = [POLICY_TITLES[v] for v in POLICY_TITLES if all(holes_of[(t, v)] == 0 for t in complete)]
    always = [POLICY_TITLES[v] for v in POLICY_TITLES if all(holes_of[(t, v)] > 0 for t in complete)]
    scope = "these traces" if len(complete) == len(traces) else \
        f"the {len(complete)} traces mapped under every policy so far ({', '.join(SHORT[t] for t in complete)})"
    return [f"On {scope}: " + (f"never a hole under {', '.join(never)}" if never else "every policy has a hole somewhere")
            + "; " + (f"a hole on every trace under {', '.join(always)}." if always else
                      "no policy has holes on every trace.")]


def summary_path(atlas, name, variant):
    return Path(atlas.packed) / f"{name}.{variant}.summary.json"


def keep_summary(atlas, name, variant, summary, census):
    """A policy map's summary and hole mechanisms beside the packed maps, so that the matrix can
    be written again on a checkout where the map is too large to have been packed."""
    mechanisms = {str(first): m for first, m in census[0].items()}
    summary_path(atlas, name, variant).write_text(
        json.dumps({"summary": summary, "mechanisms": mechanisms, "classes": census[1]}, indent=1) + "\n")


def kept_summary(atlas, name, variant):
    """The summary and census kept by keep_summary, or (None, None)."""
    path = summary_path(atlas, name, variant) if variant else None
    if not path or not path.exists():
        return None, None
    kept = json.loads(path.read_text())
    return kept["summary"], ({int(first): m for first, m in kept["mechanisms"].items()}, kept["classes"])


def timeless(summary):
    """A summary but for the time its reading took."""
    return {k: v for k, v in summary.items() if k != "seconds"} if summary is not None else None


def policy_document(atlas, args):
    """The matrix that opens the document: per trace and policy row its holes, their bytes, first
    pass, stable-from, verdict and mechanisms; then which policies never or always have holes."""
    import tempfile
    traces = public_traces()
    rows, matrix, holes_of, walks = [], {}, {}, {}
    total_cpu = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for name, file_name, sha in traces:
            trace = atlas.trace_path(file_name, sha)
            for variant in POLICY_TITLES:
                key = None if variant == "DTR" else variant
                path = sum_map_path(atlas, name, Path(scratch), key)
                summary = atlas.summary(trace, path, *RANGE, model=key) if path else None
                census = None
                if not summary:
                    summary, census = kept_summary(atlas, name, key)
                if not summary:
                    matrix[(name, variant)] = "not mapped"
                    continue
                complete = not summary.get("unmapped")
                if complete:
                    holes_of[(name, variant)] = len(summary["holes"])
                share = 1 - unmapped_bytes(summary) / (summary["to_byte"] - summary["from_byte"] + 1)
                matrix[(name, variant)] = str(len(summary["holes"])) + ("" if complete else f"* ({100 * share:.0f}%)")
                ledger = ledger_of(atlas, name, key)
                total_cpu += ledger.cpu("map") + (ledger.cpu("grid") if key is None else 0)
                if "walk" in ledger.data:
                    walks[(name, variant)] = ledger.data["walk"]
                if census is None:
                    # explain's census replays a few runs per hole (minutes for the random rows):
                    # the kept one serves while the map's holes are the ones it was made for.
                    kept, kept_census = kept_summary(atlas, name, key)
                    census = kept_census if kept is not None and kept["holes"] == summary["holes"] else None
                    if census is None and args.census:
                        census = census_of(atlas, trace, path, summary)
                    if census is not None and key is not None and timeless(kept) != timeless(summary):
                        keep_summary(atlas, name, key, summary, census)  # the summary as the map now stands
                    census = census or ({}, [])  # --no-census keeps the mechanisms kept before
                rows.append(policy_row(name, variant, summary, walks.get((name, variant), ledger.data.get("map", {})),
                                       census[0]))
    header = "| trace | " + " | ".join(POLICY_TITLES.values()) + " |"
    lines = [POLICY_BEGIN, "", "## Which policies have holes", "",
             "Exact maps of every trace under DTR's heuristics as the DTR paper compares them (DTR, DTR with",
             "equivalence classes, DTR-local, MSPS, LRU, largest storage, and random with seeds 0, 1 and 2;",
             "eager runtime, overhead limit 2, budgets 0.10–1.00), made by `scripts/atlas.py run --policies`.",
             "Holes per trace and policy (`*`: the map is not complete yet; the holes of its mapped part, and",
             "the share of the range mapped):", "",
             header, "|---|" + "---|" * len(POLICY_TITLES)]
    lines += ["| " + SHORT[name] + " | " + " | ".join(matrix[(name, v)] for v in POLICY_TITLES) + " |"
              for name, _, _ in traces]
    names = [name for name, _, _ in traces]
    lines += [""] + policy_words(holes_of, names) + [""] + walk_lines(walks, names) + [
        "", f"The runs that made the maps, with the builds of their day, took {total_cpu / 3600:.2f} CPU-hours "
        "(DTR's include its 0.001 grid). Per map:", "",
        "| trace | policy | holes | budget bytes in holes | first pass | stable from | verdict | mechanisms | "
        "intervals | replays | joins | CPU per interval | CPU time | wall |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"] + rows + [
        "", "Replays, joins (replays that met an earlier replay's path in the same state and took its rest),",
        "CPU and wall time are the walk's with one build above where the map was walked again, else the",
        "sums over the runs that made it; \"—\" where a map was made before runs printed them.", "", POLICY_END]
    out = Path(args.out)
    out.write_text(with_policy_block(out.read_text() if out.exists() else "# The hole atlas of the public DTR traces\n",
                                     "\n".join(lines)))
    print("wrote the policy atlas of " + args.out)
    for variant in POLICIES:
        pack(atlas, Path(args.pack), args.pack_limit_mb, variant)


def model_document(atlas, args):
    """The model's section: per trace its map beside the byte sum's, then its holes to the byte."""
    import tempfile
    model = args.allocator
    title = MODEL_TITLES[model]
    lines = [MODEL_MARKER.replace("MODEL", model), "", f"## Under {title}", "",
             f"The same maps (DTR, eager runtime, overhead limit 2, budgets 0.10–1.00) replayed under {title}",
             "model: on-failure eviction (a request the allocator cannot place releases its cache, then evicts",
             "the policy's choice and retries), default options, the budget as the device's capacity. Every budget",
             "byte is classified exactly, as under the byte sum: each comparison of the budget with what the",
             "replay's history fixed (a new segment's reserved bytes, the bytes over the capacity) bounds the",
             "interval. A hole is **gained** when no byte-sum hole overlaps it and **lost** when a byte-sum hole",
             "overlaps none of the model's. A **fragmentation** hole fails with the bytes free: the request's pool",
             "holds no block large enough, and the segment a miss asks for does not fit the capacity.", "",
             "| trace | holes (sum → model) | gained | lost | fragmentation holes | first pass (sum → model) | "
             "stable from (sum → model) | verdict under the model | intervals | CPU time (model) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    details = []
    total_cpu = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        for name, file_name, sha in public_traces():
            trace = atlas.trace_path(file_name, sha)
            _, map_path, ledger = atlas.paths(name, model)
            mine = atlas.summary(trace, map_path, *RANGE, model=model)
            base_path = sum_map_path(atlas, name, Path(scratch))
            base = atlas.summary(trace, base_path, *RANGE) if base_path else None
            if not mine or not base:
                lines.append(f"| {SHORT[name]} | not mapped yet | | | | | | | | |")
                continue
            census = census_of(atlas, trace, map_path, mine) if args.census else ({}, [])
            mechanisms = census[0]
            gained = [h for h in mine["holes"] if not overlaps(h, base["holes"])]
            lost = [h for h in base["holes"] if not overlaps(h, mine["holes"])]
            fragmentation = sum(1 for h in mine["holes"] if mechanisms.get(h["first_fail_byte"]) == "fragmentation")
            cpu = ledger.cpu("map")
            total_cpu += cpu
            complete = "" if not mine.get("unmapped") else f" ({100 * (1 - unmapped_bytes(mine) / (mine['to_byte'] - mine['from_byte'] + 1)):.1f}% mapped)"
            lines.append(f"| {SHORT[name]} | {len(base['holes'])} → {len(mine['holes'])} | {len(gained)} | {len(lost)} | "
                         f"{fragmentation} | {ratio(base.get('first_pass_ratio'))} → {ratio(mine.get('first_pass_ratio'))} | "
                         f"{ratio(base.get('stable_from_ratio'))} → {ratio(mine.get('stable_from_ratio'))} | "
                         f"{verdict_word(mine)}{complete} | {digits(mine['intervals'])} | {cpu:,.0f} s |")
            details += hole_section(name, mine, None, None, census)
    lines += ["", f"All eight maps under the model took {total_cpu / 3600:.2f} CPU-hours. Below, each trace's holes",
              "under the model to the byte, with the mechanism `explain` finds at the hole's lower edge.", ""]
    section = "\n".join(lines + [line.replace("## ", "### ", 1) if line.startswith("## ") else line
                                  for line in details]) + "\n"
    out = Path(args.out)
    text = out.read_text() if out.exists() else ""
    at = text.find(MODEL_MARKER.replace("MODEL", model))
    out.write_text((text[:at] if at >= 0 else text.rstrip("\n") + "\n\n") + section)
    print("wrote the " + model + " section of " + args.out)
    pack(atlas, Path(args.pack), args.pack_limit_mb, model)


def document(atlas, args):
    lines = ["# The hole atlas of the public DTR traces", "", "## DTR, hole by hole", "",
             "Generated by `scripts/atlas.py doc` from the maps `scripts/atlas.py run` makes (DTR, eager runtime,",
             "overhead limit 2, budgets 0.10–1.00 of each trace's baseline memory). A **hole** is a stretch of",
             "failing budgets with a pass right below and right above it, every byte of it mapped. The **window**",
             "runs from 0.01 below the 0.001 grid's first pass to 0.01 above its stable point (the lowest grid",
             "budget from which every grid budget passes). CPU time is what the rematlens processes used, summed",
             "over every run of the script; where a map is not complete the CPU still needed is projected from",
             "the widths of the intervals beside each unmapped gap. The last section sets these maps beside the",
             "same maps under PyTorch's caching allocator model.", "",
             "| trace | window | window mapped | 0.10–1.00 mapped | intervals | first pass | stable from | holes | verdict | CPU-hours |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    details = []
    for name, file_name, sha in public_traces():
        trace = atlas.trace_path(file_name, sha)
        grid_path, map_path, ledger = atlas.paths(name)
        grid = grid_records(grid_path)
        window = window_of(grid) if len(grid) == 901 else None
        whole = atlas.summary(trace, map_path, *RANGE)
        if not whole:
            lines.append(f"| {SHORT[name]} | — | not mapped yet | | | | | | | |")
            continue
        span = whole["to_byte"] - whole["from_byte"] + 1
        mapped = 1 - unmapped_bytes(whole) / span
        window_text, window_mapped = "—", "—"
        if window:
            ws = atlas.summary(trace, map_path, f"{window[2]:.3f}", f"{window[3]:.3f}")
            window_text = f"{window[2]:.3f}–{window[3]:.3f}"
            wspan = ws["to_byte"] - ws["from_byte"] + 1
            window_mapped = "all" if not ws.get("unmapped") else f"{100 * (1 - unmapped_bytes(ws) / wspan):.1f}%"
        cpu = ledger.cpu("map") + ledger.cpu("grid")
        if whole.get("unmapped"):
            projection = projected_cpu_hours(whole, map_path, ledger.cpu("map"))
            cost = f"{cpu / 3600:.2f} so far" + (f", about {projection:.0f} more" if projection is not None else "")
        else:
            cost = f"{cpu / 3600:.2f}"
        lines.append(f"| {SHORT[name]} | {window_text} | {window_mapped} | "
                     f"{'all' if not whole.get('unmapped') else f'{100 * mapped:.1f}%'} | {digits(whole['intervals'])} | "
                     f"{ratio(whole.get('first_pass_ratio'))} | {ratio(whole.get('stable_from_ratio'))} | "
                     f"{len(whole['holes'])} | {verdict_word(whole)} | {cost} |")
        census = census_of(atlas, trace, map_path, whole) if args.census else ({}, [])
        details += hole_section(name, whole, grid, window, census)
    lines += ["", "Every hole below is given to the byte: the first and last failing budgets, its width, the",
              "results inside it, and what the 0.001 grid saw of it (the grid budgets that fall inside, or",
              "\"missed\" when none does). Holes of a map not yet complete are those of its mapped part.", ""]
    kept = kept_model_section(Path(args.out))
    text = "\n".join(lines + details) + "\n" + ("\n" + kept if kept else "")
    policies = kept_policy_block(Path(args.out).read_text()) if Path(args.out).exists() else ""
    Path(args.out).write_text(with_policy_block(text, policies) if policies else text)
    print("wrote " + args.out)
    pack(atlas, Path(args.pack), args.pack_limit_mb)


def portable(map_bytes):
    """The map with its provenance's command lines naming files, not where they were on the
    machine that made it (absolute paths become file names); every record as it was."""
    first, newline, rest = map_bytes.partition(b"\n")
    header = json.loads(first)
    provenance = header.get("provenance", {})

    def names_only(command):
        return [os.path.basename(arg) if arg.startswith("/") else arg for arg in command]

    for entry in [provenance] + provenance.get("earlier_builds", []):
        if isinstance(entry, dict) and "command" in entry:
            entry["command"] = names_only(entry["command"])
    return json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode() + newline + rest


def pack(atlas, folder, limit_mb, model=None):
    """The maps, gzipped (byte for byte the same for the same map) where the window finds them,
    when they fit in limit_mb; the ledgers beside them."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, _, _ in public_traces():
        _, map_path, ledger = atlas.paths(name, model)
        if not map_path.exists():
            continue
        # The ledger is kept even for a map too large to pack: what it cost stays on record.
        if ledger.path.exists() and ledger.path.parent.resolve() != folder.resolve():
            (folder / ledger.path.name).write_text(ledger.path.read_text())
        packed = gzip.compress(portable(map_path.read_bytes()), compresslevel=9, mtime=0)
        target = folder / (map_path.stem + ".jsonl.gz")
        if len(packed) > limit_mb * (1 << 20):
            print(f"{name}: {len(packed) / (1 << 20):.1f} MB compressed, over {limit_mb} MB: not packed")
            target.unlink(missing_ok=True)
            continue
        target.write_bytes(packed)
        print(f"{name}: packed {target} ({len(packed) / (1 << 20):.2f} MB)")


def census_of(atlas, trace, map_path, summary):
    """Every hole's mechanism ({first failing byte: name}) and the classes, from explain's census
    (no rescue searches: a few replays per hole); empty when the map has no hole."""
    if not summary["holes"]:
        return {}, []
    started = time.monotonic()
    _, text = run_limited([atlas.binary, "explain", str(map_path), "--trace", trace, "--no-rescue", "--json"], None,
                          _NullLedger(), "census")
    maps = json.loads(text)["maps"]
    mechanisms = {}
    classes = []
    for m in maps:
        for hole in m["holes"]:
            mechanisms[hole["first_fail_byte"]] = hole.get("mechanism") or "—"
        classes += m["classes"]
    print(f"census of {map_path.name}: {len(mechanisms)} holes in {time.monotonic() - started:.0f} s", flush=True)
    return mechanisms, classes


def hole_section(name, summary, grid, window, census=({}, [])):
    mechanisms, classes = census
    lines = ["", f"### {SHORT[name]}", ""]
    if window:
        lines.append(f"0.001 grid: first pass {window[0]:.3f}, stable from {window[1]:.3f}.")
    lines.append(f"Map verdict: {summary.get('verdict', '—')}.")
    if summary.get("unmapped"):
        lines.append(f"Unmapped: {len(summary['unmapped'])} stretches, {digits(unmapped_bytes(summary))} B.")
    if not summary["holes"]:
        lines += ["", "No hole in the mapped part."]
        return lines
    if classes:
        lines += ["", "| mechanism | holes | budget bytes |", "|---|---|---|"]
        lines += [f"| {c['mechanism']} | {c['holes']} | {digits(c['bytes'])} |" for c in classes]
    with_grid = grid is not None
    lines += ["", "| # | first failing byte | last failing byte | width | ratios | inside | "
              + ("0.001 grid | " if with_grid else "") + "mechanism |",
              "|---|---|---|---|---|---|" + ("---|" if with_grid else "") + "---|"]
    for k, hole in enumerate(summary["holes"], 1):
        lines.append(f"| {k} | {digits(hole['first_fail_byte'])} | {digits(hole['last_fail_byte'])} | "
                     f"{digits(hole['width'])} B | {ratio(hole['first_fail_ratio'])}–{ratio(hole['last_fail_ratio'])} | "
                     f"{results_inside(summary, hole)} | " + (f"{grid_view(grid, hole)} | " if with_grid else "")
                     + f"{mechanisms.get(hole['first_fail_byte'], '—')} |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rematlens", default=str(REPO / "build" / "release" / "bin" / "rematlens"))
    parser.add_argument("--dir", default=str(REPO / "atlas"), help="where the grids, maps and ledgers live")
    parser.add_argument("--traces", help="folder of the eight public traces")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="extend the grids and maps (resumable)")
    run.add_argument("--minutes", type=float, help="stop each trace's work after this long (it resumes next time)")
    run.add_argument("--threads", type=int, default=0, help="threads per process (0: every core)")
    run.add_argument("--mpi", type=int, default=1, help="ranks of mpirun for the maps (1: no MPI)")
    run.add_argument("--only", nargs="*", help="short trace names (unet, lstm, ...)")
    run.add_argument("--window-only", action="store_true", help="map only each trace's window")
    run.add_argument("--allocator", choices=sorted(MODELS),
                     help="map the whole range under this allocator model instead of the byte sum")
    run.add_argument("--policies", nargs="*", choices=list(POLICIES),
                     help="map the whole range under these policy rows (none named: all of them) instead of DTR")
    walk = sub.add_parser("time", help="walk policy maps again from nothing, check them and time them")
    walk.add_argument("--threads", type=int, default=0, help="threads of each map (0: every core)")
    walk.add_argument("--only", nargs="*", help="short trace names (unet, lstm, ...)")
    walk.add_argument("--policies", nargs="*", choices=list(POLICY_TITLES),
                      help="the policy rows to walk (none named: all nine, DTR's included)")
    walk.set_defaults(mpi=1)
    doc = sub.add_parser("doc", help="write docs/atlas.md from the maps")
    doc.add_argument("--out", default=str(REPO / "docs" / "atlas.md"))
    doc.add_argument("--pack", default=str(REPO / "atlas" / "maps"),
                     help="where the gzipped maps go, for the window (the repository's atlas/maps)")
    doc.add_argument("--no-census", dest="census", action="store_false",
                     help="leave out each hole's mechanism (explain's census: a few replays per hole)")
    doc.add_argument("--pack-limit-mb", type=float, default=8.0, help="maps larger than this compressed are not packed")
    doc.add_argument("--allocator", choices=sorted(MODELS),
                     help="write only the section of this allocator model's maps, beside the byte sum's")
    doc.add_argument("--policies", action="store_true",
                     help="write only the policy atlas that opens the document, and pack the policy maps")
    args = parser.parse_args()
    if not Path(args.rematlens).exists():
        fail(args.rematlens + ": not built (cmake --preset release && cmake --build --preset release)")
    atlas = Atlas(args)
    interrupt_on_terminate()
    if args.command == "run":
        atlas.run(args)
    elif args.command == "time":
        atlas.time_walks(args, args.policies or list(POLICY_TITLES))
    elif args.allocator:
        model_document(atlas, args)
    elif args.policies:
        policy_document(atlas, args)
    else:
        document(atlas, args)


if __name__ == "__main__":
    main()
