"""Capture: records the operators of a PyTorch training step as a simrd trace."""

import gc

import torch

from .op_recorder import OpRecorder
from .op_timer import OpTimer
from .pending_file import PendingFile
from .side_file import side_file_path, write_side_file
from .tensor_names import TensorNames
from .trace_writer import TraceWriter


def _named_tensors(module, prefix_method):
    return list(getattr(module, prefix_method)()) if module is not None else []


class Capture:
    """with Capture("step.log", time="wall", model=model, optimizer=opt, inputs=[x, y]) as c:
           loss = ...; c.backward_begins(); loss.backward(); opt.step()

    Tensors first seen as arguments become constants. At the end every name is released except
    the model's weights and buffers, their gradients and the optimizer's state, as in DTR's logs.
    model, optimizer and inputs only label names in the side file and decide what stays.

    The trace and its side file are written beside their targets under temporary names and
    renamed into place only when the step was recorded completely: a step that fails leaves an
    earlier trace and side file as they were."""

    def __init__(self, path, time="unit", repeat=3, model=None, optimizer=None, inputs=(), description=None):
        self._path = str(path)
        self._timer = OpTimer(time, repeat)
        self._model = model
        self._optimizer = optimizer
        self._inputs = [t for t in inputs if isinstance(t, torch.Tensor)]
        self._description = dict(description or {})
        self._names = TensorNames()
        self._trace = None
        self._side = None
        self._writer = None
        self._recorder = None
        self._gc_was_enabled = False

    @property
    def operators(self):
        """Every operator of the trace, as `rematlens info` counts them: calls and constants."""
        return self._writer.operators if self._writer else 0

    @property
    def calls(self):
        """CALL and MUTATE lines: the operators that compute."""
        return self._writer.calls if self._writer else 0

    @property
    def constants(self):
        return self._writer.constants if self._writer else 0

    def __enter__(self):
        # Collect now and not during the step, so no collection frees tensors at a random moment.
        gc.collect()
        self._gc_was_enabled = gc.isenabled()
        gc.disable()
        self._trace = PendingFile(self._path)
        self._writer = TraceWriter(self._trace.stream)
        self._writer.annotate("START")
        self._recorder = OpRecorder(self._names, self._writer, self._timer, self._flush_releases)
        self._recorder.__enter__()
        return self

    def backward_begins(self):
        self._flush_releases()
        self._writer.annotate("BACKWARD")

    def __exit__(self, exc_type, exc, traceback):
        self._recorder.__exit__(exc_type, exc, traceback)
        complete = False
        try:
            if exc_type is None:
                self._finish()
                complete = True
        finally:
            self._names.close()
            self._settle(complete)
            if self._gc_was_enabled:
                gc.enable()
        return False

    def _settle(self, complete):
        """Both files into place, or neither."""
        if complete:
            self._trace.commit()
            self._side.commit()
            return
        self._trace.discard()
        if self._side is not None:
            self._side.discard()

    def _finish(self):
        gc.collect()  # reference cycles die here, at a fixed point of the trace
        self._flush_releases()
        roles, labels = self._roles()
        kept = {name for role in ("parameters", "buffers", "gradients", "optimizer_state") for name in roles[role]}
        for name in self._names.live_names():  # data, activations, loss, targets
            if name not in kept:
                self._names.forget(name)
                self._writer.release(name)
        self._side = PendingFile(side_file_path(self._path))
        write_side_file(self._side.stream, self._timer.mode, self._timer.repeat,
                        self._names.shapes, roles, labels, self._description)

    def _flush_releases(self):
        for name in self._names.take_dead():
            self._writer.release(name)

    def _roles(self):
        roles = {role: [] for role in ("parameters", "buffers", "gradients", "optimizer_state", "inputs")}
        labels = {}

        def note(role, tensor, label=None):
            name = self._names.name_of(tensor) if isinstance(tensor, torch.Tensor) else None
            if name is not None and name not in roles[role]:
                roles[role].append(name)
                if label:
                    labels.setdefault(name, label)

        for label, parameter in _named_tensors(self._model, "named_parameters"):
            note("parameters", parameter, label)
            note("gradients", parameter.grad, label + ".grad")
        for label, buffer in _named_tensors(self._model, "named_buffers"):
            note("buffers", buffer, label)
        for tensor, label in self._optimizer_state():
            note("optimizer_state", tensor, label)
        for tensor in self._inputs:
            note("inputs", tensor)
        order = self._names_in_order
        return {role: sorted(names, key=order) for role, names in roles.items()}, dict(sorted(labels.items(), key=lambda kv: order(kv[0])))

    @staticmethod
    def _names_in_order(name):
        return int(name[1:])

    def _optimizer_state(self):
        if self._optimizer is None:
            return []
        label_of = {id(p): label for label, p in _named_tensors(self._model, "named_parameters")}
        tensors = []
        for group in self._optimizer.param_groups:
            for parameter in group["params"]:
                for key, value in self._optimizer.state.get(parameter, {}).items():
                    if isinstance(value, torch.Tensor):
                        owner = label_of.get(id(parameter))
                        tensors.append((value, owner + "." + key if owner else None))
        return tensors
