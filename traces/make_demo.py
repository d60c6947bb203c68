#!/usr/bin/env python3
"""Writes demo.log: a small simrd-format trace of an 8-layer convolutional network.

Forward: conv -> batch_norm (three outputs) -> in-place relu (MUTATE) per layer, a view
(alias) before the loss; backward: one gradient call per layer with the activations it
needs, releasing activations as a framework would. Sizes are bytes of float32 tensors of a
batch of 16 32x32 images; times are nanoseconds from a FLOP count at 4 TFLOP/s.
Deterministic: running it again gives the same file.
"""
import json
import sys

LAYERS = 8
BATCH, CHANNELS, SIDE = 16, 64, 32
ACT = BATCH * CHANNELS * SIDE * SIDE * 4
WEIGHT = CHANNELS * CHANNELS * 9 * 4
CONV_NS = 2 * BATCH * CHANNELS * CHANNELS * 9 * SIDE * SIDE // 4000

lines = []
counter = [0]


def emit(**fields):
    lines.append(json.dumps(fields, separators=(",", ":"), sort_keys=True))


def fresh():
    counter[0] += 1
    return "x%d" % counter[0]


def constant(size):
    name = fresh()
    emit(INSTRUCTION="CONSTANT", NAME=name)
    emit(INSTRUCTION="MEMORY", NAME=name, MEMORY=str(size))
    return name


def call(op, args, sizes, time, aliases=None):
    results = [fresh() for _ in sizes]
    emit(INSTRUCTION="CALL", NAME=op, ARGS=args, RESULT=results, TIME=str(time))
    for i, (name, size) in enumerate(zip(results, sizes)):
        emit(INSTRUCTION="MEMORY", NAME=name, MEMORY=str(size))
        emit(INSTRUCTION="ALIAS", NAME=name, ALIAS=str(aliases[i] if aliases else -1))
    return results


emit(INSTRUCTION="ANNOTATE", ANNOTATION="START")
x = constant(ACT)
weights = [constant(WEIGHT) for _ in range(LAYERS)]
saved = []
for w in weights:
    (y,) = call("aten::conv2d", [x, w], [ACT], CONV_NS)
    out, mean, var = call("aten::batch_norm", [y], [ACT, CHANNELS * 4, CHANNELS * 4], CONV_NS // 20)
    emit(INSTRUCTION="MUTATE", NAME="aten::relu_", ARGS=[out], MUTATE=[0], TIME=str(CONV_NS // 50))
    relu = out  # the name now holds the mutated tensor
    emit(INSTRUCTION="RELEASE", NAME=mean)
    emit(INSTRUCTION="RELEASE", NAME=var)
    saved.append((x, y, relu, w))
    x = relu
(flat,) = call("aten::view", [x], [0], 100, aliases=[0])
(loss,) = call("aten::mse_loss", [flat], [4], CONV_NS // 100)
emit(INSTRUCTION="ANNOTATE", ANNOTATION="BACKWARD")
(grad,) = call("aten::ones_like", [loss], [4], 10)
(grad,) = call("aten::mse_loss_backward", [grad, flat], [ACT], CONV_NS // 100)
emit(INSTRUCTION="RELEASE", NAME=flat)
for inp, y, relu, w in reversed(saved):
    (g_relu,) = call("aten::threshold_backward", [grad, relu], [ACT], CONV_NS // 50)
    emit(INSTRUCTION="RELEASE", NAME=grad)
    emit(INSTRUCTION="RELEASE", NAME=relu)
    (g_bn,) = call("aten::batch_norm_backward", [g_relu, y], [ACT], CONV_NS // 10)
    emit(INSTRUCTION="RELEASE", NAME=g_relu)
    emit(INSTRUCTION="RELEASE", NAME=y)
    g_in, g_w = call("aten::conv2d_backward", [g_bn, inp, w], [ACT, WEIGHT], 2 * CONV_NS)
    emit(INSTRUCTION="RELEASE", NAME=g_bn)
    emit(INSTRUCTION="RELEASE", NAME=g_w)
    grad = g_in
emit(INSTRUCTION="RELEASE", NAME=loss)

sys.stdout.write("\n".join(lines) + "\n")
