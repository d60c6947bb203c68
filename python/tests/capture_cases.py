"""The small models of the golden traces: each returns what capture_step needs."""

import torch
from torch import nn
from torch.nn import functional


def mlp():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    return dict(model=model, inputs=(torch.randn(4, 8),), loss_fn=functional.cross_entropy,
                targets=torch.tensor([0, 1, 2, 3]), optimizer=None)


def cnn_batchnorm():
    """Batch norm (buffers updated in place) and an in-place ReLU (MUTATE)."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
    return dict(model=model, inputs=(torch.randn(2, 3, 8, 8),), loss_fn=functional.cross_entropy,
                targets=torch.tensor([0, 2]), optimizer=None)


class LanguageModel(nn.Module):
    def __init__(self, vocabulary=10, width=8, tied=False, recurrent=True):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, width)
        self.lstm = nn.LSTM(width, width) if recurrent else None
        self.decoder = nn.Linear(width, vocabulary)
        if tied:
            self.decoder.weight = self.embedding.weight

    def forward(self, tokens):
        hidden = self.embedding(tokens)
        if self.lstm is not None:
            hidden, _ = self.lstm(hidden)
        return self.decoder(hidden).flatten(0, 1)


def _language_case(model):
    torch.manual_seed(1)
    tokens = torch.randint(0, 10, (3, 2))      # sequence of 3, batch of 2
    targets = torch.randint(0, 10, (6,))
    return dict(model=model, inputs=(tokens,), loss_fn=functional.cross_entropy, targets=targets, optimizer=None)


def lstm():
    torch.manual_seed(0)
    return _language_case(LanguageModel())


def tied_weights():
    """The embedding's weight is also the decoder's: one parameter, one gradient, two uses."""
    torch.manual_seed(0)
    return _language_case(LanguageModel(tied=True, recurrent=False))


def optimizer_step():
    """Adam: its state (step, exp_avg, exp_avg_sq) comes from the warm-up step and is mutated."""
    case = mlp()
    case["optimizer"] = torch.optim.Adam(case["model"].parameters(), lr=1e-3)
    return case


GOLDEN_CASES = {"mlp": mlp, "cnn-batchnorm": cnn_batchnorm, "lstm": lstm, "tied-weights": tied_weights,
                "optimizer-step": optimizer_step}
