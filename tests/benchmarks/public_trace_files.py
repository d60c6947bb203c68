"""Where the by-hand benchmarks find the public DTR traces: REMATLENS_SHARED_DIR/traces/dtr-2020,
else shared/traces/dtr-2020 beside the repository (or beside one of its parent folders)."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PUBLIC_TRACES = ["unet", "resnet32", "inceptionv4", "tv_densenet121", "transformer", "unroll_gan", "treelstm", "lstm"]


def trace_directory():
    shared = os.environ.get("REMATLENS_SHARED_DIR")
    candidates = [Path(shared)] if shared else []
    candidates += [parent / "shared" for parent in REPO.parents]
    for c in candidates:
        if (c / "traces" / "dtr-2020").is_dir():
            return c / "traces" / "dtr-2020"
    return None


def resolve_traces(names, program):
    """(short name, path) of each name: a trace file, or a public trace's short name (all eight
    when names is empty). program names the caller in the error for a name not found."""
    directory = trace_directory()
    found = []
    for name in names or PUBLIC_TRACES:
        path = Path(name)
        if path.is_file():
            found.append((path.name.split("-")[0], path))
            continue
        matches = sorted(directory.glob(f"{name}-*.log")) if directory else []
        if not matches:
            raise SystemExit(f"{program}: no trace {name!r}"
                             + (f" in {directory}" if directory else " (set REMATLENS_SHARED_DIR)"))
        found.append((name, matches[0]))
    return found
