"""Replays a trace's names and references as simrd reads them, and refuses what simrd would
misread: a name used after its release, a CALL block broken by another instruction, a bad alias."""

import json


class TraceError(AssertionError):
    pass


class TraceCheck:
    def __init__(self, path):
        self.path = str(path)
        with open(self.path, encoding="utf-8") as stream:
            self.lines = [json.loads(line) for line in stream]
        self.tensor_of = {}       # name -> tensor number
        self.references = {}      # tensor number -> external references
        self.released = set()     # names released
        self.instructions = []    # (index, instruction) in order, for the tests to look at
        self._run()

    def live_names(self):
        return sorted((n for n in self.tensor_of if n not in self.released), key=lambda n: int(n[1:]))

    def same_tensor(self, a, b):
        return self.tensor_of[a] == self.tensor_of[b]

    def index_of(self, predicate, start=0):
        for index in range(start, len(self.lines)):
            if predicate(self.lines[index]):
                return index
        raise TraceError("%s: no line after %d matches" % (self.path, start))

    def _fail(self, index, message):
        raise TraceError("%s:%d: %s" % (self.path, index + 1, message))

    def _new_tensor(self, index, name):
        if name in self.tensor_of:
            self._fail(index, "name %s bound twice" % name)
        self.tensor_of[name] = len(self.references)
        self.references[len(self.references)] = 1

    def _use(self, index, name):
        if name not in self.tensor_of:
            self._fail(index, "%s used before it is bound" % name)
        if name in self.released:
            self._fail(index, "%s used after its release" % name)

    def _expect(self, index, kind, name):
        if index >= len(self.lines):
            self._fail(index - 1, "trace ends inside a block; expected %s for %s" % (kind, name))
        line = self.lines[index]
        if line.get("INSTRUCTION") != kind or line.get("NAME") != name:
            self._fail(index, "expected %s of %s, got %s" % (kind, name, json.dumps(line)))
        return line

    def _run(self):
        if self.lines[0] != {"INSTRUCTION": "ANNOTATE", "ANNOTATION": "START"}:
            self._fail(0, "the trace must begin with ANNOTATE START")
        index = 1
        while index < len(self.lines):
            index = self._step(index, self.lines[index])

    def _step(self, index, line):
        kind = line["INSTRUCTION"]
        if kind == "ANNOTATE":
            if line["ANNOTATION"] != "BACKWARD":
                self._fail(index, "unexpected annotation %s" % line["ANNOTATION"])
            return index + 1
        if kind == "CONSTANT":
            self._new_tensor(index, line["NAME"])
            self._expect(index + 1, "MEMORY", line["NAME"])
            return index + 2
        if kind == "CALL":
            for name in line["ARGS"]:
                self._use(index, name)
            following = index + 1
            for name in line["RESULT"]:
                self._new_tensor(index, name)
                memory = int(self._expect(following, "MEMORY", name)["MEMORY"])
                alias = int(self._expect(following + 1, "ALIAS", name)["ALIAS"])
                if not -1 <= alias < len(line["ARGS"]) or (alias >= 0 and memory != 0):
                    self._fail(following + 1, "bad alias %d (memory %d) for %s" % (alias, memory, name))
                following += 2
            return following
        if kind == "MUTATE":
            for name in line["ARGS"]:
                self._use(index, name)
            if not line["MUTATE"] or any(not 0 <= i < len(line["ARGS"]) for i in line["MUTATE"]):
                self._fail(index, "bad MUTATE indices")
            return index + 1
        if kind == "COPY":
            self._use(index, line["SRC"])
            if line["DST"] in self.tensor_of:
                self._fail(index, "COPY to a bound name %s" % line["DST"])
            self.tensor_of[line["DST"]] = self.tensor_of[line["SRC"]]
            self.references[self.tensor_of[line["SRC"]]] += 1
            return index + 1
        if kind == "RELEASE":
            self._use(index, line["NAME"])
            self.released.add(line["NAME"])
            self.references[self.tensor_of[line["NAME"]]] -= 1
            return index + 1
        self._fail(index, "unexpected instruction %s" % kind)
