"""parse_file: the sizes of a trace's MEMORY lines, replayed in order by the closure."""
import json


class Graph:
    def __init__(self, sizes):
        self.sizes = sizes

    def get_closure(self):
        def run(rt):
            for index, size in enumerate(self.sizes):
                rt.allocate(index, size)
            rt.finish()
        return run


def parse_file(f, start=True):
    sizes = []
    for line in f:
        entry = json.loads(line)
        if entry.get("INSTRUCTION") == "MEMORY":
            sizes.append(int(entry["MEMORY"]))
    return Graph(sizes)
