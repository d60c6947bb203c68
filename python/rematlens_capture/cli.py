"""python3 -m rematlens_capture --model torchvision:resnet18 --batch 16 --out resnet18-b16.log"""

import argparse
import statistics
import sys
import time

import torch

from .models import ModelSpecError, load_step, parse_shape
from .op_timer import TIME_MODES
from .side_file import side_file_path
from .step import capture_step


def _parser():
    parser = argparse.ArgumentParser(prog="python3 -m rematlens_capture",
                                     description="Record one PyTorch training step as a simrd trace.")
    parser.add_argument("--model", required=True, help="torchvision:NAME or FILE.py:FUNCTION")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--input", help="input shape without the batch, e.g. 3x224x224")
    parser.add_argument("--optimizer", choices=("sgd", "adam", "none"), default="none",
                        help="record the optimizer's step too (default none: forward and backward, as DTR's logs)")
    parser.add_argument("--time", choices=TIME_MODES, default="wall")
    parser.add_argument("--repeat", type=int, default=3, help="runs per operator for --time wall (median)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, help="torch.set_num_threads")
    parser.add_argument("--out", required=True, help="the trace to write (FILE.log; FILE.meta.json beside it)")
    return parser


def _optimizer(name, model):
    if name == "sgd":
        return torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    if name == "adam":
        return torch.optim.Adam(model.parameters(), lr=1e-3)
    return None


def _plain_step_seconds(step, optimizer, runs=3):
    """The uninstrumented step (median of a few), for comparison with the capture's duration; the
    first run is the warm-up that creates the optimizer's state."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        output = step.model(*step.inputs)
        loss = step.loss_fn(output) if step.targets is None else step.loss_fn(output, step.targets)
        loss.backward()
        if optimizer is not None:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        step.model.zero_grad(set_to_none=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main(argv=None):
    options = _parser().parse_args(argv)
    if options.batch < 1 or options.repeat < 1:
        print("rematlens_capture: error: --batch and --repeat must be at least 1", file=sys.stderr)
        return 2
    torch.manual_seed(options.seed)
    if options.threads:
        torch.set_num_threads(options.threads)
    try:
        step = load_step(options.model, options.batch, parse_shape(options.input) if options.input else None)
    except ModelSpecError as error:
        print("rematlens_capture: error: %s" % error, file=sys.stderr)
        return 2
    optimizer = _optimizer(options.optimizer, step.model)
    description = {"model": options.model, "batch": options.batch, "optimizer": options.optimizer}
    plain = _plain_step_seconds(step, optimizer)
    started = time.perf_counter()
    capture = capture_step(step.model, step.inputs, step.loss_fn, optimizer, path=options.out, time=options.time,
                           repeat=options.repeat, targets=step.targets, description=description, warm_up=False)
    captured = time.perf_counter() - started
    print("%s: %d operators; captured step %.2f s, plain step %.3f s; side file %s"
          % (options.out, capture.operators, captured, plain, side_file_path(options.out)), file=sys.stderr)
    return 0
