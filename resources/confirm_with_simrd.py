#!/usr/bin/python3
"""Replays RematLens's records with unmodified simrd and compares every field.

Written by `rematlens confirm`; the records to check are in CHECK below. Usage:

    /usr/bin/python3 THIS_SCRIPT [SIMRD_DIR]

SIMRD_DIR (or the environment variable SIMRD) is the folder that holds simrd's Python package
`simrd` (in the uwsampl/dtr-prototype repository: its folder `simrd/`). Python 3 and its standard
library are all it needs besides simrd. simrd is not changed: the script runs simrd's own runtime
classes, only subclassed to count what simrd's telemetry does not (evictions chosen by the policy
and on release, rematerializations) and to note where a run ran out of memory.

It prints one line per record, "same" or the fields that differ, and exits 0 when every record
agrees, 1 when one differs, 2 when simrd or the trace cannot be used.
"""

import hashlib
import json
import math
import os
import sys

CHECK = json.loads(r"""@CHECK@""")

COMPARED = ["budget", "result", "clock", "remat_compute", "max_memory", "memory_at_end", "evictions",
            "released_evictions", "remats", "heuristic_evals"]
COMPARED_FAILURE = ["tensor", "bytes_needed", "memory_in_use", "bytes_short", "depth", "locked_bytes"]


def fail(message):
    print("confirm: " + message, file=sys.stderr)
    sys.exit(2)


def simrd_modules(directory):
    """simrd's parser, runtimes and heuristics, imported from directory."""
    if directory is None:
        fail("say where simrd is: SIMRD=DIR or the first argument (the folder holding the package simrd)")
    if os.path.isdir(os.path.join(directory, "simrd", "simrd")):
        directory = os.path.join(directory, "simrd")  # the repository's root was given
    if not os.path.isfile(os.path.join(directory, "simrd", "__init__.py")):
        fail(directory + ": no Python package simrd here")
    sys.path.insert(0, directory)
    import simrd.heuristic
    import simrd.parse
    import simrd.runtime
    heuristics = [simrd.heuristic]
    try:
        import simrd.heuristic.ablation
        heuristics.append(simrd.heuristic.ablation)
    except ImportError:
        pass
    return simrd.parse, simrd.runtime, heuristics


def observed(runtime_class):
    """runtime_class, counting evictions, rematerializations and the failing allocation."""

    class Observed(runtime_class):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.rl_policy_evicting = False
            self.rl_evictions = 0
            self.rl_released = 0
            self.rl_remats = 0
            self.rl_pending = []  # tensors being materialized, the model's own call first
            self.rl_failure = None

        def _free(self, size):
            self.rl_policy_evicting = True
            try:
                return super()._free(size)
            except MemoryError:
                if self.rl_failure is None:
                    self.rl_failure = self.rl_describe_failure(size)
                raise
            finally:
                self.rl_policy_evicting = False

        def _T_evict(self, storage):
            if self.rl_policy_evicting:
                self.rl_evictions += 1
            else:
                self.rl_released += 1
            return super()._T_evict(storage)

        def _T_compute(self, tensor, rematerialize, direct):
            if rematerialize and direct:
                self.rl_remats += 1
            return super()._T_compute(tensor, rematerialize, direct)

        def _materialize(self, tensor, rematerialize=True):
            self.rl_pending.append(tensor)
            result = super()._materialize(tensor, rematerialize)
            self.rl_pending.pop()
            return result

        def rl_describe_failure(self, size):
            locked = {}
            for tensor in self.tensor_map.values():
                storage = tensor.storage
                if storage.material and storage.ref_int > 0:
                    locked[id(storage)] = storage.size
            return {"tensor": self.rl_pending[-1].name if self.rl_pending else None,
                    "bytes_needed": size,
                    "memory_in_use": self.memory_usage,
                    "bytes_short": self.memory_usage + size - self.budget,
                    "depth": len(self.rl_pending),
                    "locked_bytes": sum(locked.values())}

    return Observed


class Simrd:
    def __init__(self, directory, trace_path):
        self.parse, self.runtimes, self.heuristics = simrd_modules(directory)
        with open(trace_path) as f:
            text = f.read()
        starts = '"ANNOTATION":"START"' in text.replace(" ", "")
        with open(trace_path) as f:
            self.callback = self.parse.parse_file(f, start=starts).get_closure()
        baseline = self.runtimes.RuntimeV1(math.inf, self.heuristic("Heuristic"), stats=False, trace=False)
        self.callback(baseline)
        self.baseline_compute = baseline.telemetry.summary["model_compute"]

    def heuristic(self, name):
        for module in self.heuristics:
            if isinstance(getattr(module, name, None), type):
                return getattr(module, name)()
        return None

    def run(self, record):
        """simrd's fields for the record's heuristic, runtime and budget."""
        runtime_class = getattr(self.runtimes, record["runtime"], None)
        heuristic = self.heuristic(record["heuristic"])
        limit = self.baseline_compute * (record.get("overhead_limit", 2.0) - 1)
        rt = observed(runtime_class)(record["budget"], heuristic, remat_limit=limit, stats=False, trace=False)
        result = "pass"
        try:
            self.callback(rt)
        except MemoryError:
            result = "oom"
        except self.runtimes.RematExceededError:
            result = "thrash"
        summary = rt.telemetry.summary
        fields = {"budget": rt.budget, "result": result, "clock": rt.clock,
                  "remat_compute": summary["remat_compute"], "max_memory": summary["max_memory"],
                  "memory_at_end": rt.memory_usage, "evictions": rt.rl_evictions,
                  "released_evictions": rt.rl_released, "remats": rt.rl_remats,
                  "heuristic_evals": summary["heuristic_eval_count"]}
        if result == "oom":
            fields["failure"] = rt.rl_failure
        return fields

    def unsupported(self, record):
        """Why simrd cannot replay the record, or None."""
        if record.get("result") not in ("pass", "oom", "thrash"):
            return "RematLens left it unresolved (" + str(record.get("result")) + ")"
        if record.get("keep"):
            return "it keeps tensors resident (--keep), which simrd cannot"
        if not isinstance(getattr(self.runtimes, record.get("runtime", ""), None), type):
            return "simrd has no runtime " + str(record.get("runtime"))
        if self.heuristic(record.get("heuristic", "")) is None:
            return "simrd has no policy " + str(record.get("heuristic"))
        if record["heuristic"] in ("RandomStorage", "AbRandom"):
            return "simrd's random policies are not seeded"
        return None


def differences(ours, theirs):
    """The fields where RematLens's record (ours) and simrd's run (theirs) differ."""
    found = []
    for field in COMPARED:
        if ours.get(field) != theirs.get(field):
            found.append("%s: simrd %s, RematLens %s" % (field, json.dumps(theirs.get(field)), json.dumps(ours.get(field))))
    if ("failure" in ours) != ("failure" in theirs):
        found.append("failure: in only one of simrd and RematLens")
    elif "failure" in theirs:
        for field in COMPARED_FAILURE:
            a, b = ours["failure"].get(field), theirs["failure"].get(field)
            if a != b:
                found.append("failure.%s: simrd %s, RematLens %s" % (field, json.dumps(b), json.dumps(a)))
    return found


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main():
    trace = os.environ.get("REMATLENS_CONFIRM_TRACE", CHECK["trace_path"])
    if not os.path.isfile(trace):
        fail(trace + ": the trace is not there (set REMATLENS_CONFIRM_TRACE to where it is now)")
    if sha256_of(trace) != CHECK["trace_sha256"]:
        fail(trace + ": its SHA-256 is not the one the results were made from (" + CHECK["trace_sha256"] + ")")
    directory = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SIMRD")
    simrd = Simrd(directory, trace)
    same = differ = skipped = 0
    for record in CHECK["records"]:
        label = "%s %s budget %d (ratio %s)" % (record["heuristic"], record["runtime"], record["budget"],
                                                record.get("ratio"))
        why = simrd.unsupported(record)
        if why:
            print(label + ": not compared: " + why)
            skipped += 1
            continue
        found = []
        for repeat in range(CHECK["repeats"]):
            found = differences(record, simrd.run(record))
            if found:
                found.append("(replay %d of %d)" % (repeat + 1, CHECK["repeats"]))
                break
        print(label + ": " + ("same" if not found else "differs: " + "; ".join(found)), flush=True)
        if found:
            differ += 1
        else:
            same += 1
    print("confirm: %d same, %d differ, %d not compared, each replayed %d times by simrd"
          % (same, differ, skipped, CHECK["repeats"]))
    return 0 if differ == 0 and same > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
