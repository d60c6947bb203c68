"""Heuristics by name, as simrd.heuristic exports them (the stand-in's choice ignores them)."""


class Heuristic:
    FEATURES = set()


class DTR(Heuristic):
    pass


class LRU(Heuristic):
    pass
