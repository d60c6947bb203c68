"""capture_step: one warm-up step, then exactly one recorded training step."""

import torch

from .capture import Capture


def _as_tuple(inputs):
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def _train_step(model, inputs, loss_fn, optimizer, targets, capture=None):
    output = model(*inputs)
    if output is None:
        raise TypeError("the model's forward returned None: make it return its output")
    loss = loss_fn(output) if targets is None else loss_fn(output, targets)
    del output
    if not isinstance(loss, torch.Tensor) or loss.numel() != 1:
        raise TypeError("the loss must be one number (a tensor of one element), got %s"
                        % ("a tensor of shape %s" % list(loss.shape) if isinstance(loss, torch.Tensor)
                           else type(loss).__name__))
    if capture is not None:
        capture.backward_begins()
    loss.backward()
    if optimizer is not None:
        optimizer.step()
    return loss


def train_step(model, inputs, loss_fn, optimizer=None, targets=None):
    """One plain, unrecorded training step (what the capture's duration is compared with)."""
    _train_step(model, _as_tuple(inputs), loss_fn, optimizer, targets)
    _clear_gradients(model, optimizer)


def _clear_gradients(model, optimizer):
    if optimizer is not None:
        optimizer.zero_grad(set_to_none=True)
    model.zero_grad(set_to_none=True)


def capture_step(model, inputs, loss_fn, optimizer=None, path="step.log", time="unit", repeat=3,
                 targets=None, description=None, warm_up=True):
    """Records model(*inputs) -> loss_fn(output[, targets]) -> backward -> optimizer.step().

    The warm-up step creates the optimizer's state and PyTorch's lazily built kernels, so the
    recorded step is a steady-state one (warm_up=False when the caller has run steps already);
    gradients are cleared (set to None) before it, so they are created by the backward pass, as in
    DTR's logs. Returns the Capture (operators counted)."""
    inputs = _as_tuple(inputs)
    model.train()
    if warm_up:
        _train_step(model, inputs, loss_fn, optimizer, targets)
    _clear_gradients(model, optimizer)
    data = list(inputs) + ([targets] if isinstance(targets, torch.Tensor) else [])
    capture = Capture(path, time=time, repeat=repeat, model=model, optimizer=optimizer, inputs=data,
                      description=description)
    with capture:
        _train_step(model, inputs, loss_fn, optimizer, targets, capture)
    return capture
