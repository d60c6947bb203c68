"""Models that fail, each in its own way, for the command line's error tests."""

import os

import torch
from torch import nn
from torch.utils._python_dispatch import _get_current_dispatch_mode


class _Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)


class _DictOutput(_Linear):
    def forward(self, x):
        return {"out": self.fc(x)}


class _NoOutput(_Linear):
    def forward(self, x):
        self.fc(x)


class _FailsWhileRecorded(_Linear):
    """Trains normally, but raises inside the recorded step (under the capture's dispatch mode)."""

    def forward(self, x):
        if _get_current_dispatch_mode() is not None:
            raise RuntimeError("fails while recorded")
        return self.fc(x)


def raises(batch):
    raise ValueError("no weights for batch %d" % batch)


def dict_forward():
    return _DictOutput()


def none_forward():
    return _NoOutput()


def none_forward_with_loss(batch):
    return _NoOutput(), (torch.randn(batch, 4),), lambda output: output.sum()


def fails_while_recorded(batch):
    return _FailsWhileRecorded(), (torch.randn(batch, 4),), lambda output: output.pow(2).mean()


def not_a_model():
    return 42


def leaves_a_mark():
    """Writes a file when called, so a test can tell the model was never built."""
    open(os.environ["REMATLENS_TEST_MARK"], "w").close()
    return nn.Linear(4, 3)
