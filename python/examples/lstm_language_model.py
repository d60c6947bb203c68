"""A two-layer LSTM language model, the shape of DTR's LSTM trace, for `python3 -m
rematlens_capture --model python/examples/lstm_language_model.py:make --batch 32`."""

import torch
from torch import nn
from torch.nn import functional

VOCABULARY, WIDTH, LAYERS, SEQUENCE = 10000, 256, 2, 35


class LstmLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCABULARY, WIDTH)
        self.lstm = nn.LSTM(WIDTH, WIDTH, LAYERS)
        self.decoder = nn.Linear(WIDTH, VOCABULARY)

    def forward(self, tokens):
        hidden, _ = self.lstm(self.embedding(tokens))
        return self.decoder(hidden).flatten(0, 1)


def make(batch):
    tokens = torch.randint(0, VOCABULARY, (SEQUENCE, batch))
    targets = torch.randint(0, VOCABULARY, (SEQUENCE * batch,))
    return LstmLanguageModel(), (tokens,), functional.cross_entropy, targets
