"""A user's own model for the command line test: FILE.py:FUNCTION returning (model, inputs, loss)."""

import torch
from torch import nn


def make(batch):
    model = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 1))
    inputs = torch.randn(batch, 5)
    return model, (inputs,), lambda output: output.pow(2).mean()


def module_only():
    return nn.Sequential(nn.Flatten(), nn.Linear(12, 3))
