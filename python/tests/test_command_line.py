"""python3 -m rematlens_capture, as a user runs it."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import support
from trace_check import TraceCheck


def run_capture(*arguments, environment=None):
    environment = dict(os.environ, PYTHONPATH=support.PYTHON_DIR, **(environment or {}))
    return subprocess.run([sys.executable, "-m", "rematlens_capture", *arguments], env=environment,
                          capture_output=True, text=True, timeout=300)


class CommandLine(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.directory.name, "model.log")

    def tearDown(self):
        self.directory.cleanup()

    def meta(self):
        with open(os.path.join(self.directory.name, "model.meta.json"), encoding="utf-8") as stream:
            return json.load(stream)

    def test_own_model_from_a_factory_with_sgd(self):
        factory = os.path.join(support.HERE, "tiny_factory.py")
        result = run_capture("--model", factory + ":make", "--batch", "3", "--time", "unit", "--optimizer", "sgd",
                             "--out", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        check = TraceCheck(self.out)
        meta = self.meta()
        self.assertEqual((meta["model"], meta["batch"], meta["optimizer"]), (factory + ":make", 3, "sgd"))
        self.assertEqual(len(meta["parameters"]), 4)
        self.assertEqual(len(meta["optimizer_state"]), 4)  # momentum buffers
        self.assertEqual(meta["tensors"][meta["inputs"][0]]["shape"], [3, 5])
        self.assertIn("aten::tanh", {line.get("NAME") for line in check.lines})
        self.assertIn("operators", result.stderr)

    def test_module_only_factory_is_fed_random_inputs_of_the_given_shape(self):
        factory = os.path.join(support.HERE, "tiny_factory.py")
        result = run_capture("--model", factory + ":module_only", "--batch", "2", "--input", "3x4",
                             "--optimizer", "none", "--time", "flops", "--out", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        meta = self.meta()
        self.assertEqual(meta["optimizer_state"], [])
        self.assertEqual(meta["time"], "flops")
        self.assertEqual(sorted(meta["tensors"][name]["shape"] for name in meta["inputs"]), [[2], [2, 3, 4]])

    def test_torchvision_model(self):
        result = run_capture("--model", "torchvision:resnet18", "--batch", "2", "--input", "3x32x32",
                             "--optimizer", "none", "--time", "unit", "--out", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        meta = self.meta()
        self.assertEqual(len(meta["parameters"]), 62)
        self.assertEqual(len(meta["gradients"]), 62)
        self.assertEqual(len(meta["buffers"]), 60)  # running mean, variance, batches tracked of 20 norms
        self.assertEqual(set(TraceCheck(self.out).live_names()),
                         set(meta["parameters"] + meta["gradients"] + meta["buffers"]))
        self.assertIn("316 operators (192 calls, 124 constants)", result.stderr)
        if support.rematlens_binary():  # the reader finds the fresh capture complete, and counts alike
            info = subprocess.run([support.rematlens_binary(), "info", self.out, "--strict"], capture_output=True,
                                  text=True, timeout=120)
            self.assertEqual((info.returncode, info.stderr), (0, ""))
            self.assertIn("operators           316 (192 calls, 124 constants,", info.stdout)

    def test_bad_model_specifications_are_refused_with_the_reason(self):
        cases = [(["--model", "missing.py:make"], "no such file 'missing.py'"),
                 (["--model", "torchvision:no_such_net"], "no model named 'no_such_net'"),
                 (["--model", "resnet18"], "expected torchvision:NAME or FILE.py:FUNCTION"),
                 (["--model", "torchvision:resnet18", "--input", "3xfoo"], "expected sizes joined by x")]
        for arguments, message in cases:
            with self.subTest(arguments=arguments):
                result = run_capture(*arguments, "--out", self.out)
                self.assertEqual(result.returncode, 2)
                self.assertIn(message, result.stderr)
                self.assertFalse(os.path.exists(self.out))


if __name__ == "__main__":
    unittest.main()
