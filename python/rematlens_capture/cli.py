"""python3 -m rematlens_capture --model torchvision:resnet18 --batch 16 --out resnet18-b16.log

Every error is one line on standard error saying what went wrong and what to do; the exit
status is 2 for the command line, 1 for a model that fails. What needs no model (the output
folder, the model's file and function) is checked before anything is built."""

import argparse
import os
import statistics
import sys
import time

import torch

from .errors import ModelError, UsageError, describe, out_of_memory
from .models import build_step, parse_shape, resolve_model
from .op_timer import TIME_MODES
from .side_file import side_file_path
from .step import capture_step, train_step

PROGRAM = "python3 -m rematlens_capture"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError("%s (see %s --help)" % (message, PROGRAM))


def _parser():
    parser = _Parser(prog=PROGRAM, description="Record one PyTorch training step as a simrd trace.")
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


def _check_numbers(options):
    for flag, value in (("--batch", options.batch), ("--repeat", options.repeat), ("--threads", options.threads)):
        if value is not None and value < 1:
            raise UsageError("%s must be at least 1, got %d" % (flag, value))


def _check_output(path):
    """The trace and its side file are renamed into place, so their folder must take new files."""
    folder = os.path.dirname(os.path.abspath(path))
    for target in (path, side_file_path(path)):
        if os.path.isdir(target):
            raise UsageError("--out %s: %s is a folder: give a file name such as %s"
                             % (path, target, os.path.join(target, "model.log")))
    if not os.path.isdir(folder):
        raise UsageError("--out %s: the folder %s does not exist: create it (mkdir -p %s) or write elsewhere"
                         % (path, folder, folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError("--out %s: the folder %s is not writable: choose a folder you can write to" % (path, folder))


def _plain_step_seconds(step, optimizer, runs=3):
    """The uninstrumented step (median of a few), for comparison with the capture's duration; the
    first run is the warm-up that creates the optimizer's state."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        train_step(step.model, step.inputs, step.loss_fn, optimizer, step.targets)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _about_output(error, out):
    folder = os.path.dirname(os.path.abspath(out))
    return error.filename is None or os.path.dirname(os.path.abspath(str(error.filename))) == folder


def _model_failed(what, error, out):
    advice = "try a smaller --batch" if out_of_memory(error) else "fix the model, its inputs or its loss"
    return ModelError("the model failed %s: %s; %s (%s was not written)" % (what, describe(error), advice, out))


def _capture(options):
    _check_numbers(options)
    _check_output(options.out)
    input_shape = parse_shape(options.input) if options.input else None
    source = resolve_model(options.model)
    torch.manual_seed(options.seed)
    if options.threads:
        torch.set_num_threads(options.threads)
    step = build_step(source, options.batch, input_shape)
    try:
        optimizer = _optimizer(options.optimizer, step.model)
        plain = _plain_step_seconds(step, optimizer)
    except Exception as error:  # noqa: BLE001 -- the user's model: one line, not a traceback
        raise _model_failed("in a training step", error, options.out) from error
    description = {"model": options.model, "batch": options.batch, "optimizer": options.optimizer}
    started = time.perf_counter()
    try:
        capture = capture_step(step.model, step.inputs, step.loss_fn, optimizer, path=options.out, time=options.time,
                               repeat=options.repeat, targets=step.targets, description=description, warm_up=False)
    except OSError as error:
        if not _about_output(error, options.out):
            raise _model_failed("while its step was recorded", error, options.out) from error
        raise ModelError("cannot write %s: %s; free space or choose another --out" % (options.out, error)) from error
    except Exception as error:  # noqa: BLE001
        raise _model_failed("while its step was recorded", error, options.out) from error
    captured = time.perf_counter() - started
    print("%s: %d operators (%d calls, %d constants); captured step %.2f s, plain step %.3f s; side file %s"
          % (options.out, capture.operators, capture.calls, capture.constants, captured, plain,
             side_file_path(options.out)), file=sys.stderr)
    return 0


def main(argv=None):
    try:
        return _capture(_parser().parse_args(argv))
    except UsageError as error:
        print("rematlens_capture: error: %s" % error, file=sys.stderr)
        return 2
    except ModelError as error:
        print("rematlens_capture: error: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rematlens_capture: interrupted; nothing was written", file=sys.stderr)
        return 130
