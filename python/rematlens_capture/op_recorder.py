"""Turns every ATen operator PyTorch runs into simrd trace instructions."""

import torch
from torch.utils._pytree import tree_flatten
from torch.utils._python_dispatch import TorchDispatchMode

from .tensor_names import storage_bytes, storage_key

# A new name for the same tensor: simrd's COPY, as DTR's instrumented PyTorch logged them.
_COPY_OPERATORS = {"aten::detach", "aten::alias"}


def _tensors(tree):
    return [value for value in tree_flatten(tree)[0] if isinstance(value, torch.Tensor)]


def _written_arguments(func, args, kwargs):
    """ids of the tensors the operator's schema says it writes (Tensor(a!) self, out=...)."""
    written = set()
    for position, argument in enumerate(func._schema.arguments):
        if argument.alias_info is None or not argument.alias_info.is_write:
            continue
        if argument.name in kwargs:
            value = kwargs[argument.name]
        elif position < len(args) and not argument.kwarg_only:
            value = args[position]
        else:
            continue
        written.update(id(t) for t in _tensors(value))
    return written


class OpRecorder(TorchDispatchMode):
    """Sees each operator below autograd, so the forward, the backward and the optimizer's
    operators all arrive here, with the very tensor objects the model holds."""

    def __init__(self, names, writer, timer, flush_releases):
        super().__init__()
        self._names = names
        self._writer = writer
        self._timer = timer
        self._flush_releases = flush_releases

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if torch.Tag.inplace_view in func.tags or func.namespace == "profiler":
            return func(*args, **kwargs)  # detach_, t_, squeeze_ change metadata only
        self._flush_releases()
        inputs = _tensors((args, kwargs))
        input_ids = {id(t) for t in inputs}
        written_ids = _written_arguments(func, args, kwargs)
        output, price = self._timer.run(func, args, kwargs, bool(written_ids))
        new_outputs = self._new_outputs(_tensors(output), input_ids)
        mutated = [i for i, t in enumerate(inputs) if id(t) in written_ids]
        if not new_outputs and not mutated:
            return output  # .item(), or an operator returning its own argument
        operator = func._schema.name
        arg_names = [self._name_argument(t) for t in inputs]
        time = price(inputs, new_outputs)
        if operator in _COPY_OPERATORS and len(new_outputs) == 1 and arg_names and not mutated:
            self._writer.copy(self._names.bind(new_outputs[0]), arg_names[0])
            return output
        if new_outputs:
            results = [self._result(t, inputs) for t in new_outputs]
            self._writer.call(operator, arg_names, results, time)
            time = 0  # the call above carried the cost of any write below
        if mutated:
            self._writer.mutate(operator, arg_names, mutated, time)
        return output

    @staticmethod
    def _new_outputs(outputs, input_ids):
        seen, fresh = set(input_ids), []
        for tensor in outputs:
            if id(tensor) not in seen:
                seen.add(id(tensor))
                fresh.append(tensor)
        return fresh

    def _name_argument(self, tensor):
        """A tensor first met as an argument: a name that shares the memory of a known tensor
        (a COPY of it), or else a constant (a parameter, an input, a buffer, optimizer state)."""
        name = self._names.name_of(tensor)
        if name is not None:
            return name
        sibling = self._names.live_name_on_storage(tensor)
        name = self._names.bind(tensor)
        if sibling is not None:
            self._writer.copy(name, sibling)
        else:
            self._writer.constant(name, storage_bytes(tensor))
        return name

    def _result(self, tensor, inputs):
        key = storage_key(tensor)
        alias = -1
        if key is not None:
            alias = next((i for i, t in enumerate(inputs) if storage_key(t) == key), -1)
        name = self._names.bind(tensor)
        return name, (0 if alias >= 0 else storage_bytes(tensor)), alias
