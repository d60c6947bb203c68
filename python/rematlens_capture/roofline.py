"""A deterministic operator cost: the slower of its arithmetic and its memory traffic on a fixed
machine (10 TFLOP/s, 500 GB/s, the roofline of `rematlens synth`), in nanoseconds."""

import math

FLOPS_PER_NANOSECOND = 1e4
BYTES_PER_NANOSECOND = 500.0


def _numel(shape):
    return math.prod(shape) if shape else 1


def _matmul_flops(op, tensors):
    if op in ("aten::mm", "aten::bmm"):
        a, b = tensors[0], tensors[1]
    else:  # addmm, baddbmm, addbmm: the bias comes first
        a, b = tensors[1], tensors[2]
    return 2 * _numel(a.shape) * b.shape[-1]


def _convolution_flops(output, weight):
    # Each output element is a dot product over input channels per group times the kernel.
    return 2 * _numel(output.shape) * _numel(weight.shape[1:])


def estimate_flops(op, inputs, outputs):
    """FLOPs of the operators that dominate training; one per output element for the rest."""
    if op in ("aten::mm", "aten::bmm", "aten::addmm", "aten::baddbmm", "aten::addbmm") and len(inputs) >= 2:
        return _matmul_flops(op, inputs)
    if op == "aten::convolution" and len(inputs) >= 2 and outputs:
        return _convolution_flops(outputs[0], inputs[1])
    if op == "aten::convolution_backward" and len(inputs) >= 3:
        grad_output, weight = inputs[0], inputs[2]
        return 2 * _convolution_flops(grad_output, weight)  # input gradient and weight gradient
    return sum(_numel(t.shape) for t in outputs)


def _tensor_bytes(tensor):
    return _numel(tensor.shape) * tensor.element_size()


def roofline_nanoseconds(op, inputs, outputs):
    flops = estimate_flops(op, inputs, outputs)
    moved = sum(_tensor_bytes(t) for t in inputs) + sum(_tensor_bytes(t) for t in outputs)
    return max(1, math.ceil(max(flops / FLOPS_PER_NANOSECOND, moved / BYTES_PER_NANOSECOND)))
