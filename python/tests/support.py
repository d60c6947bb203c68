"""Shared by the capture tests: paths, the package import, and the golden capture itself."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
SOURCE_DIR = os.path.dirname(PYTHON_DIR)
GOLDEN_DIR = os.path.join(SOURCE_DIR, "tests", "data", "capture")
sys.path.insert(0, PYTHON_DIR)

import torch  # noqa: E402

from rematlens_capture import capture_step  # noqa: E402


def capture_case(case, path, time="unit"):
    torch.set_num_threads(1)
    return capture_step(case["model"], case["inputs"], case["loss_fn"], case["optimizer"], path=path,
                        time=time, targets=case["targets"])


def rematlens_binary():
    return os.environ.get("REMATLENS_BINARY")
