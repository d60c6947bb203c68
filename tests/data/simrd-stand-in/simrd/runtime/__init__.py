"""Runtimes with the attributes and hooks the confirm script reads; a toy allocator inside.

Each tensor costs 10 on the clock. Memory full: the oldest storage is evicted by the policy
(_free). At the end, every second storage is released (eviction on release) and the first one
is rematerialized if it was evicted (cost 10 more, counted as rematerialization compute).
"""
import math


class RematExceededError(RuntimeError):
    pass


class Telemetry:
    def __init__(self):
        self.summary = {"model_compute": 0, "remat_compute": 0, "max_memory": 0, "heuristic_eval_count": 0}


class Storage:
    def __init__(self, size):
        self.size = size
        self.material = True
        self.ref_int = 0


class Tensor:
    def __init__(self, index, size):
        self.name = "x%d" % index
        self.storage = Storage(size)


class RuntimeBase:
    def __init__(self, budget, heuristic, remat_limit=math.inf, stats=False, trace=False):
        self.budget = budget
        self.heuristic = heuristic
        self.remat_limit = remat_limit
        self.clock = 1
        self.memory_usage = 0
        self.tensor_map = {}
        self.telemetry = Telemetry()
        self.pool = []

    def allocate(self, index, size):
        tensor = Tensor(index, size)
        self.tensor_map[index] = tensor
        self._materialize(tensor, rematerialize=False)

    def _materialize(self, tensor, rematerialize=True):
        tensor.storage.ref_int += 1  # locked while it is made, as a parent would be
        if self.memory_usage + tensor.storage.size > self.budget:
            self._free(tensor.storage.size)
        tensor.storage.ref_int -= 1
        self.clock += 10
        self.memory_usage += tensor.storage.size
        tensor.storage.material = True
        self.telemetry.summary["max_memory"] = max(self.telemetry.summary["max_memory"], self.memory_usage)
        self._T_compute(tensor, rematerialize, True)
        self.pool.append(tensor)
        return tensor

    def _free(self, size):
        while self.memory_usage + size > self.budget:
            if not self.pool:
                raise MemoryError()
            self.telemetry.summary["heuristic_eval_count"] += len(self.pool)
            self._evict(self.pool.pop(0))

    def _evict(self, tensor):
        tensor.storage.material = False
        self.memory_usage -= tensor.storage.size
        self._T_evict(tensor.storage)

    def _T_evict(self, storage):
        pass

    def _T_compute(self, tensor, rematerialize, direct):
        key = "remat_compute" if rematerialize else "model_compute"
        self.telemetry.summary[key] += 10
        if self.telemetry.summary["remat_compute"] > self.remat_limit:
            raise RematExceededError("over the limit")

    def finish(self):
        for tensor in list(self.pool)[1::2]:
            self.pool.remove(tensor)
            self._evict(tensor)
        first = self.tensor_map.get(0)
        if first is not None and not first.storage.material:
            self._materialize(first)


class RuntimeV1(RuntimeBase):
    pass


class RuntimeV2EagerOptimized(RuntimeBase):
    pass
