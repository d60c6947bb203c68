"""What the requests give back: a trace, one run, a map."""

import pandas as pd


def frame(columns):
    """A DataFrame of the columns the library hands over (a dict of arrays and lists)."""
    return pd.DataFrame(columns, copy=False)


class Trace:
    """A trace to replay: a file (or ":demo") and what `rematlens info` says of it."""

    def __init__(self, path, info):
        self.path = path
        self.info = info

    @property
    def name(self):
        return self.info["trace"]

    def __fspath__(self):
        return self.path

    def __repr__(self):
        info = self.info
        return "<Trace %s: %s operators, baseline memory %s B, compute %s>" % (
            self.name, format(info.get("operators", 0), ","), format(info["baseline_memory"], ","),
            format(info["baseline_compute"], ","))


class Run:
    """One budget replayed: `record` holds every field of `rematlens run --json`; `events`
    (evictions, frees, rematerializations and calls) and `timeline` (memory at every clock tick)
    are DataFrames when the run was recorded."""

    def __init__(self, record, text, events=None, timeline=None):
        self.record = record
        self.text = text
        self.events = frame(events) if events is not None else None
        self.timeline = frame(timeline) if timeline is not None else None

    def __getitem__(self, field):
        return self.record[field]

    @property
    def result(self):
        return self.record["result"]

    def __repr__(self):
        r = self.record
        return "<Run %s %s at %s (%s B): %s, clock %s, %s evictions, %s remats>" % (
            r["trace"], r["heuristic"], r["ratio"], format(r["budget"], ","), r["result"], format(r["clock"], ","),
            r["evictions"], r["remats"])


class Map:
    """Every budget byte of a range classified: `intervals` (one row per interval, the records
    `rematlens map --out` writes), `holes` (one row per hole, to the byte), `summary` and
    `verdict` per policy, and the range [lo, hi) in bytes."""

    def __init__(self, result):
        self.trace = result["trace"]
        self.range = tuple(result["range"])
        self.baseline = result["baseline"]
        self.interrupted = result["interrupted"]
        parts = result["maps"]
        self.intervals = frame(result["intervals"])
        self.provenance = result.get("provenance")
        holes = []
        for p in parts:
            rows = frame(p["holes"])
            rows.insert(0, "heuristic", p["summary"]["heuristic"])
            holes.append(rows)
        self.holes = pd.concat(holes, ignore_index=True) if holes else pd.DataFrame()
        self.summary = {p["summary"]["heuristic"]: p["summary"] for p in parts}

    @property
    def verdict(self):
        """The monotone verdict: one policy's text, or a dict by policy."""
        verdicts = {policy: s["verdict"] for policy, s in self.summary.items()}
        return next(iter(verdicts.values())) if len(verdicts) == 1 else verdicts

    def __repr__(self):
        lo, hi = self.range
        return "<Map %s, %s B to %s B (%.4g-%.4g of the baseline): %s intervals, %s holes>" % (
            self.trace, format(lo, ","), format(hi - 1, ","), lo / self.baseline, (hi - 1) / self.baseline,
            format(len(self.intervals), ","), len(self.holes))
