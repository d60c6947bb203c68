"""Writes simrd's JSON-lines trace format, one instruction per line, keys in a fixed order."""

import json


def _line(fields):
    return json.dumps(fields, separators=(",", ":")) + "\n"


class TraceWriter:
    """Numbers go out as JSON strings, as in DTR's own logs and simrd's parser expects.

    Counts as `rematlens info` does: calls are the CALL and MUTATE lines (operators that compute),
    constants the CONSTANT lines; operators are both."""

    def __init__(self, stream):
        self._stream = stream
        self.calls = 0
        self.constants = 0

    @property
    def operators(self):
        return self.calls + self.constants

    def annotate(self, annotation):
        self._write({"INSTRUCTION": "ANNOTATE", "ANNOTATION": annotation})

    def constant(self, name, nbytes):
        self._write({"INSTRUCTION": "CONSTANT", "NAME": name})
        self._memory(name, nbytes)
        self.constants += 1

    def call(self, operator, args, results, time):
        """results: (name, bytes, alias) per output; alias is the index of the argument whose
        storage the output shares, or -1."""
        self._write({"INSTRUCTION": "CALL", "NAME": operator, "ARGS": list(args),
                     "RESULT": [name for name, _, _ in results], "TIME": str(time)})
        for name, nbytes, alias in results:
            self._memory(name, nbytes)
            self._write({"INSTRUCTION": "ALIAS", "NAME": name, "ALIAS": str(alias)})
        self.calls += 1

    def mutate(self, operator, args, mutated, time):
        self._write({"INSTRUCTION": "MUTATE", "NAME": operator, "ARGS": list(args),
                     "MUTATE": list(mutated), "TIME": str(time)})
        self.calls += 1

    def copy(self, destination, source):
        self._write({"INSTRUCTION": "COPY", "DST": destination, "SRC": source})

    def release(self, name):
        self._write({"INSTRUCTION": "RELEASE", "NAME": name})

    def _memory(self, name, nbytes):
        self._write({"INSTRUCTION": "MEMORY", "NAME": name, "MEMORY": str(nbytes)})

    def _write(self, fields):
        self._stream.write(_line(fields))
