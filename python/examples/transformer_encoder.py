"""A Transformer encoder language model for `python3 -m rematlens_capture --model
python/examples/transformer_encoder.py:make --batch 8`: 4 layers, width 256, 4 heads, sequence 64."""

import torch
from torch import nn
from torch.nn import functional

VOCABULARY, WIDTH, HEADS, LAYERS, SEQUENCE = 1000, 256, 4, 4, 64


class EncoderLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCABULARY, WIDTH)
        layer = nn.TransformerEncoderLayer(WIDTH, HEADS, dim_feedforward=4 * WIDTH, dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, LAYERS)
        self.decoder = nn.Linear(WIDTH, VOCABULARY)

    def forward(self, tokens):
        return self.decoder(self.encoder(self.embedding(tokens))).flatten(0, 1)


def make(batch):
    tokens = torch.randint(0, VOCABULARY, (SEQUENCE, batch))
    targets = torch.randint(0, VOCABULARY, (SEQUENCE * batch,))
    return EncoderLanguageModel(), (tokens,), functional.cross_entropy, targets
