"""RematLens in a notebook: replay, sweep, map and explain memory-budgeted DTR training traces.

The same library as the `rematlens` command line and window, with pandas out::

    import rematlens
    m = rematlens.map("unet.log", 0.40, 0.45)      # every budget byte classified
    m.intervals                                    # a DataFrame, one row per interval
    m.holes                                        # one row per feasibility hole
    runs = rematlens.sweep("unet.log", 0.40, 0.45, 0.001, policies=["DTR", "MSPS"])

Traces are file paths, ":demo" (the embedded demo) or a Trace from load(), synth() or capture().
Budgets are ratios of the trace's baseline memory (as the command line's --ratio) or bytes.
Long work shows its progress (a text bar, or progress=callable(label, done, total, finished)),
releases the GIL, and stops on Ctrl+C (KeyboardInterrupt) within half a second, keeping what a
map wrote to its file. Errors raise UsageError (bad arguments) or InputError (a file that
cannot be read or written), with the command line's one-line message.
"""

from ._rematlens import InputError, RematLensError, UsageError
from .requests import (capture, explain, figure, holes, info, load, map, read_map, rescue, run, sweep, synth,
                       synth_presets)
from .results import Map, Run, Trace

__all__ = [
    "InputError", "Map", "RematLensError", "Run", "Trace", "UsageError", "capture", "explain", "figure", "holes",
    "info", "load", "map", "read_map", "rescue", "run", "sweep", "synth", "synth_presets",
]
