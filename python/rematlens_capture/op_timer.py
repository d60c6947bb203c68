"""The TIME of each recorded operator, by the capture's time mode."""

import statistics
import time

import torch

from .roofline import roofline_nanoseconds

TIME_MODES = ("wall", "flops", "unit")

# Operators that change state their schema does not declare (running statistics): never rerun.
_STATEFUL_OPERATORS = {"aten::native_batch_norm", "aten::_native_batch_norm_legit",
                       "aten::cudnn_batch_norm", "aten::miopen_batch_norm"}


def _repeatable(func, writes_arguments):
    if writes_arguments or func._schema.name in _STATEFUL_OPERATORS:
        return False
    return torch.Tag.nondeterministic_seeded not in func.tags


class OpTimer:
    """wall: the median of `repeat` runs in nanoseconds (operators that write, draw random numbers
    or update hidden state run once, as the model runs them); flops: a roofline estimate; unit: 1."""

    def __init__(self, mode, repeat=3):
        if mode not in TIME_MODES:
            raise ValueError("time mode must be one of %s, got %r" % (", ".join(TIME_MODES), mode))
        if repeat < 1:
            raise ValueError("repeat must be at least 1, got %d" % repeat)
        self.mode = mode
        self.repeat = repeat

    def run(self, func, args, kwargs, writes_arguments):
        """Runs the operator once for the model; returns (its output, a function that prices it
        given its input and output tensors)."""
        started = time.perf_counter_ns()
        output = func(*args, **kwargs)
        first = time.perf_counter_ns() - started
        if self.mode == "unit":
            return output, lambda inputs, outputs: 1
        if self.mode == "flops":
            return output, lambda inputs, outputs: roofline_nanoseconds(func._schema.name, inputs, outputs)
        samples = [first]
        if _repeatable(func, writes_arguments):
            for _ in range(self.repeat - 1):
                started = time.perf_counter_ns()
                func(*args, **kwargs)
                samples.append(time.perf_counter_ns() - started)
        wall = max(1, int(statistics.median(samples)))
        return output, lambda inputs, outputs: wall
