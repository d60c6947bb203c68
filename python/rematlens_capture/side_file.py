"""The side file beside a trace: what the trace alone cannot say (shapes, roles, how it was timed)."""

import json

import torch

FORMAT = "rematlens-capture-meta/1"
ROLES = ("parameters", "buffers", "gradients", "optimizer_state", "inputs")


def side_file_path(trace_path):
    """resnet18-b16.log -> resnet18-b16.meta.json; any other name gets .meta.json appended."""
    trace_path = str(trace_path)
    stem = trace_path[:-len(".log")] if trace_path.endswith(".log") else trace_path
    return stem + ".meta.json"


def write_side_file(stream, time_mode, repeat, shapes, roles, labels, description):
    document = {
        "format": FORMAT,
        "torch": torch.__version__,
        "time": time_mode,
    }
    if time_mode == "wall":
        document["repeat"] = repeat
    document.update(description)
    document.update({role: roles.get(role, []) for role in ROLES})
    document["labels"] = labels
    document["tensors"] = {name: {"shape": shape, "dtype": dtype} for name, (shape, dtype) in shapes.items()}
    stream.write(_one_entry_per_line(document))


def _compact(value):
    return json.dumps(value, separators=(",", ":"))


def _one_entry_per_line(document):
    """Readable and diff-friendly: one top-level field per line, one tensor per line."""
    lines = []
    for key, value in document.items():
        if isinstance(value, dict) and value:
            inner = ",\n".join("  %s: %s" % (_compact(k), _compact(v)) for k, v in value.items())
            lines.append(" %s: {\n%s\n }" % (_compact(key), inner))
        else:
            lines.append(" %s: %s" % (_compact(key), _compact(value)))
    return "{\n" + ",\n".join(lines) + "\n}\n"
