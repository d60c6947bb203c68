"""The requests, with the command line's defaults, as keyword arguments."""

import os
import tempfile

import pandas as pd

from . import _rematlens
from .progress import TextProgress
from .results import Map, Run, Trace, frame


def _path(trace):
    return os.fspath(trace)


def _decimal(value):
    """A ratio or limit as the command line reads it: text stays text, a float its shortest repr
    (so 0.419 is the double nearest 0.419, as --ratio 0.419 gives)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _rematlens.UsageError("expected a number, got %r" % (value,))
    return repr(float(value))


def _names(value, default=()):
    if value is None:
        return list(default)
    return [value] if isinstance(value, str) else list(value)


def _progress(progress):
    """None: a text bar on stderr; False: none; else the callable itself."""
    if progress is None:
        return TextProgress()
    return None if progress is False else progress


def _threads(threads):
    return 0 if threads is None else int(threads)


def info(trace, strict=False):
    """What `rematlens info --json` says: baseline memory and compute, constants, bottleneck, sizes."""
    return _rematlens.info(_path(trace), strict)


def load(trace, strict=False):
    """A trace file (or ":demo"), read and checked; strict=True refuses a truncated capture."""
    path = _path(trace)
    return Trace(path, _rematlens.info(path, strict))


def synth_presets():
    """The generator's models: name, description and default layers and batch."""
    return pd.DataFrame(_rematlens.synth_presets())


def synth(preset, layers=None, batch=None, seed=0, out=None):
    """A trace of a model nobody recorded, from the generator's presets (as `rematlens synth`);
    written to `out` (a temporary file when None)."""
    text = _rematlens.synth(preset, layers, batch, seed)
    if out is None:
        handle, out = tempfile.mkstemp(prefix="rematlens-%s-" % preset, suffix=".log")
        os.close(handle)
    with open(out, "w") as file:
        file.write(text)
    return load(out)


def capture(model, inputs, loss_fn, optimizer=None, targets=None, out=None, time="unit", repeat=3):
    """One training step of a PyTorch model recorded as a trace (rematlens_capture, Debian's
    python3-torch), then loaded."""
    from rematlens_capture import capture_step
    if out is None:
        handle, out = tempfile.mkstemp(prefix="rematlens-capture-", suffix=".log")
        os.close(handle)
    capture_step(model, inputs, loss_fn, optimizer=optimizer, targets=targets, path=out, time=time, repeat=repeat)
    return load(out)


def run(trace, ratio=None, budget=None, policy="DTR", runtime="eager", overhead_limit=2.0, seed=0, keep=(),
        allocator="sum", eviction="", capacity=None, alloc_options=(), record=True, strict=False):
    """One budget replayed (ratio of the baseline, or budget in bytes): every field of
    `rematlens run --json`, and with record=True its events and memory timeline as DataFrames."""
    result = _rematlens.run(_path(trace), None if ratio is None else _decimal(ratio), budget, policy, runtime,
                            _decimal(overhead_limit), seed, _names(keep), allocator, eviction or "", capacity,
                            _names(alloc_options), record, strict)
    return Run(result["record"], result["text"], result.get("events"), result.get("timeline"))


def sweep(trace, start, stop, step, policies=("DTR",), allocators=("sum",), runtime="eager", overhead_limit=2.0,
          seed=0, keep=(), eviction="", capacity=None, alloc_options=(), threads=None, wall_limit=None,
          progress=None, strict=False):
    """Every (policy, allocator model, budget) of the grid start..stop by step, one DataFrame row
    per run with the fields of `rematlens sweep --out`'s records (a nested failure as
    "failure.tensor", ...), in policy, model and budget order."""
    result = _rematlens.sweep(_path(trace), _decimal(start), _decimal(stop), _decimal(step), _names(policies, ["DTR"]),
                              runtime, _decimal(overhead_limit), seed, _names(keep), _names(allocators, ["sum"]),
                              eviction or "", capacity, _names(alloc_options), _threads(threads), wall_limit,
                              _progress(progress), strict)
    runs = frame(result["records"])
    runs.attrs["trace"] = result["trace"]
    return runs


def holes(trace, start, stop, step, policies=("DTR",), allocator="sum", runtime="eager", overhead_limit=2.0, seed=0,
          keep=(), eviction="", capacity=None, alloc_options=(), threads=None, wall_limit=None, progress=None,
          strict=False):
    """The feasibility holes of each policy over the grid, one row per hole (as `rematlens holes
    --json`: the first and last failing budgets and the passing ones around them, as ratios and
    bytes); each policy's whole report is in .attrs["reports"]."""
    rows, reports = [], {}
    for policy in _names(policies, ["DTR"]):
        report = _rematlens.holes(_path(trace), _decimal(start), _decimal(stop), _decimal(step), policy, runtime,
                                  _decimal(overhead_limit), seed, _names(keep), allocator, eviction or "", capacity,
                                  _names(alloc_options), _threads(threads), wall_limit, _progress(progress), strict)
        reports[policy] = report
        for hole in report["holes"]:
            row = {"heuristic": policy}
            row.update({k: v for k, v in hole.items() if k not in ("results", "passes_around")})
            rows.append(row)
    table = pd.DataFrame(rows, columns=["heuristic", "first_fail", "last_fail", "last_pass_below", "first_pass_above",
                                        "first_fail_budget", "last_fail_budget", "last_pass_below_budget",
                                        "first_pass_above_budget"])
    table.attrs["reports"] = reports
    return table


def map(trace, start=None, stop=None, from_bytes=None, to_bytes=None, policies=("DTR",), runtime="eager",
        overhead_limit=2.0, seed=0, keep=(), threads=None, wall_limit=None, out=None, summary_only=False,
        progress=None, strict=False, allocator="sum", eviction="", capacity=None, alloc_options=()):
    """Every budget byte of start..stop (ratios, stop mapped inclusive) or from_bytes..to_bytes
    classified exactly (as `rematlens map`), under the byte sum or an allocator model
    (allocator="caching" or "best-fit", with eviction, capacity and alloc_options as `run` takes
    them). With out=FILE.jsonl the intervals are appended as they are found and a later call
    resumes where it stopped; summary_only=True replays nothing and reads what out holds (its
    gaps unmapped)."""
    result = _rematlens.map(_path(trace), None if start is None else _decimal(start),
                            None if stop is None else _decimal(stop), from_bytes, to_bytes, _names(policies, ["DTR"]),
                            runtime, _decimal(overhead_limit), seed, _names(keep), _threads(threads), wall_limit,
                            "" if out is None else os.fspath(out), summary_only, _progress(progress), strict,
                            allocator, eviction or "", capacity, _names(alloc_options))
    return Map(result)


def read_map(path):
    """A map file as `rematlens map --out` writes it, or gzip-compressed as the atlas keeps its
    maps (atlas/maps/*.jsonl.gz), read into a Map: its intervals, each map's holes and verdict."""
    return Map(_rematlens.read_map(os.fspath(path)))


def explain(trace, ratio=None, budget=None, hole=None, map_file=None, policy="DTR", runtime="eager",
            overhead_limit=2.0, seed=0, keep=(), rescue=None, pair_only=False, threads=None, strict=False):
    """Why a hole exists, as `rematlens explain --json` tells it: from a budget inside it (ratio=
    or budget=), from a passing and a failing budget (two of them), or the K-th hole of a map
    file (hole=K, map_file=FILE.jsonl). rescue=False skips the rescue searches."""
    ratios = [_decimal(r) for r in _names(ratio)] if not isinstance(ratio, (int, float)) else [_decimal(ratio)]
    budgets = list(budget) if isinstance(budget, (list, tuple)) else ([] if budget is None else [int(budget)])
    return _rematlens.explain(_path(trace), ratios, budgets, hole, "" if map_file is None else os.fspath(map_file),
                              policy, runtime, _decimal(overhead_limit), seed, _names(keep), rescue, pair_only,
                              _threads(threads), strict)


def rescue(trace, ratio=None, budget=None, policy="DTR", runtime="eager", overhead_limit=2.0, seed=0, keep=(),
           threads=None, progress=None, strict=False):
    """The single storages the policy evicted that, kept resident, make a failing run pass (best
    first), as a DataFrame; .attrs["report"] holds `rematlens rescue --json`'s whole report."""
    report = _rematlens.rescue(_path(trace), None if ratio is None else _decimal(ratio), budget, policy, runtime,
                               _decimal(overhead_limit), seed, _names(keep), _threads(threads), _progress(progress),
                               strict)
    table = pd.DataFrame(report.get("rescues", []))
    table.attrs["report"] = report
    return table


def figure(kind, trace, out, data=None, size="double", font_size=None, dpi=300, palette="default",
           decimal_units=False, policies=(), runtime="eager", overhead_limit=2.0, ratio=None, budget=None,
           compare_ratio=None, x_axis="step", seed=0, allocator="sum", start=0.1, stop=1.0, step=0.01, exact=False,
           threads=None, strict=False):
    """A figure for a paper, as `rematlens figure KIND` draws it: kind is strip, timeline,
    cascade, memory-map or hole-anatomy; out is FILE.svg, FILE.pdf or FILE.png; size single,
    double, slide or "WxH" in inches. Returns out."""
    traces = [_path(t) for t in (trace if isinstance(trace, (list, tuple)) else [trace])]
    _rematlens.figure(kind, traces, os.fspath(out), "" if data is None else os.fspath(data), size, font_size, dpi,
                      palette, decimal_units, _names(policies), runtime, _decimal(overhead_limit),
                      None if ratio is None else _decimal(ratio), budget,
                      None if compare_ratio is None else _decimal(compare_ratio), x_axis, seed, allocator,
                      _decimal(start), _decimal(stop), _decimal(step), exact, _threads(threads), strict)
    return out
