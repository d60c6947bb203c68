"""Every bad input to python3 -m rematlens_capture: one line naming the cause and what to do, exit
status 2 for the command line and 1 for a model that fails, and an earlier trace and side file
left exactly as they were."""

import os
import subprocess
import sys
import tempfile
import unittest

import support
from test_command_line import run_capture

FACTORIES = os.path.join(support.HERE, "failing_factories.py")
EARLIER_TRACE = '{"INSTRUCTION":"ANNOTATE","ANNOTATION":"START"}\n'
EARLIER_SIDE = '{"format":"an earlier capture"}\n'


def factory(name):
    return FACTORIES + ":" + name


# (arguments, exit status, what the line must say); --out model.log is added.
CASES = [
    (["--model", factory("raises")], 1, "the factory raised ValueError: no weights for batch 16 (failing_factories.py line"),
    (["--model", factory("dict_forward"), "--input", "4"], 1, "the forward pass returned a dict (keys 'out'), not a tensor"),
    (["--model", factory("none_forward"), "--input", "4"], 1, "the forward pass returned None, not a tensor"),
    (["--model", factory("none_forward_with_loss")], 1, "the model's forward returned None"),
    (["--model", factory("fails_while_recorded")], 1, "while its step was recorded: RuntimeError: fails while recorded"),
    (["--model", factory("not_a_model")], 1, "must return an nn.Module or (model, inputs, loss_fn[, targets]), got an object of type int"),
    (["--model", factory("no_such_function")], 2, "defines no function 'no_such_function' (its functions: dict_forward"),
    (["--model", factory("none_forward")], 2, "returned a module only: give --input"),
    (["--model", "torchvision:resnet"], 2, "torchvision.models has no model named 'resnet'"),
    (["--model", "missing.py:make"], 2, "no such file 'missing.py'"),
    (["--model", "resnet18"], 2, "expected torchvision:NAME or FILE.py:FUNCTION"),
    (["--model", factory("raises"), "--batch", "0"], 2, "--batch must be at least 1, got 0"),
    (["--model", factory("raises"), "--batch", "many"], 2, "argument --batch: invalid int value: 'many' (see"),
    (["--model", factory("raises"), "--time", "never"], 2, "argument --time: invalid choice: 'never'"),
]


class CaptureErrors(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.directory.name, "model.log")
        self.side = os.path.join(self.directory.name, "model.meta.json")
        self.mark = os.path.join(self.directory.name, "built")

    def tearDown(self):
        self.directory.cleanup()

    def write_earlier_capture(self):
        for path, text in ((self.out, EARLIER_TRACE), (self.side, EARLIER_SIDE)):
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.utime(path, (1_000_000_000, 1_000_000_000))

    def assert_earlier_capture_untouched(self):
        for path, text in ((self.out, EARLIER_TRACE), (self.side, EARLIER_SIDE)):
            with open(path, encoding="utf-8") as stream:
                self.assertEqual(stream.read(), text, path)
            self.assertEqual(os.stat(path).st_mtime, 1_000_000_000, path)
        self.assertEqual(sorted(os.listdir(self.directory.name)), ["model.log", "model.meta.json"])  # no temporaries

    def assert_one_line(self, result, status, message):
        self.assertEqual(result.returncode, status, result.stderr)
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
        self.assertTrue(result.stderr.startswith("rematlens_capture: error: "), result.stderr)
        self.assertIn(message, result.stderr)

    def test_each_bad_input_is_one_line_and_leaves_the_earlier_capture(self):
        for arguments, status, message in CASES:
            with self.subTest(arguments=arguments[1:]):
                self.write_earlier_capture()
                result = run_capture(*arguments, "--time", "unit", "--out", self.out) if "--time" not in arguments \
                    else run_capture(*arguments, "--out", self.out)
                self.assert_one_line(result, status, message)
                self.assert_earlier_capture_untouched()

    def test_a_missing_folder_is_found_before_the_model_is_built(self):
        out = os.path.join(self.directory.name, "no-such-folder", "model.log")
        result = run_capture("--model", factory("leaves_a_mark"), "--input", "4", "--out", out,
                             environment={"REMATLENS_TEST_MARK": self.mark})
        self.assert_one_line(result, 2, "the folder %s does not exist: create it" % os.path.dirname(out))
        self.assertFalse(os.path.exists(self.mark))

    def test_a_folder_as_out_is_refused_before_the_model_is_built(self):
        result = run_capture("--model", factory("leaves_a_mark"), "--input", "4", "--out", self.directory.name,
                             environment={"REMATLENS_TEST_MARK": self.mark})
        self.assert_one_line(result, 2, "is a folder: give a file name such as")
        self.assertFalse(os.path.exists(self.mark))

    @unittest.skipIf(os.geteuid() == 0, "root writes into any folder")
    def test_a_folder_that_is_not_writable_is_refused(self):
        os.chmod(self.directory.name, 0o555)
        try:
            result = run_capture("--model", factory("leaves_a_mark"), "--input", "4", "--out", self.out,
                                 environment={"REMATLENS_TEST_MARK": self.mark})
        finally:
            os.chmod(self.directory.name, 0o755)
        self.assert_one_line(result, 2, "is not writable")

    def test_a_file_that_does_not_import_is_named_with_its_line(self):
        broken = os.path.join(self.directory.name, "broken.py")
        with open(broken, "w", encoding="utf-8") as stream:
            stream.write("import torch\n\ndef make(:\n")
        result = run_capture("--model", broken + ":make", "--out", self.out)
        self.assert_one_line(result, 1, "broken.py cannot be imported: SyntaxError: invalid syntax (broken.py line 3); fix the file")

    def test_without_torch_the_line_says_what_to_install(self):
        hide_torch = ("import runpy, sys; sys.modules['torch'] = None; sys.argv[1:] = ['--model', 'torchvision:resnet18', "
                      "'--out', 'model.log']; runpy.run_module('rematlens_capture', run_name='__main__')")
        result = subprocess.run([sys.executable, "-c", hide_torch], env=dict(os.environ, PYTHONPATH=support.PYTHON_DIR),
                                cwd=self.directory.name, capture_output=True, text=True, timeout=120)
        self.assert_one_line(result, 1, "torch is not installed for %s: install python3-torch" % sys.executable)

    def test_a_good_capture_replaces_both_files_and_leaves_no_temporaries(self):
        self.write_earlier_capture()
        result = run_capture("--model", os.path.join(support.HERE, "tiny_factory.py") + ":make", "--batch", "2",
                             "--time", "unit", "--out", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(self.out, encoding="utf-8") as stream:
            self.assertNotEqual(stream.read(), EARLIER_TRACE)
        with open(self.side, encoding="utf-8") as stream:
            self.assertIn("rematlens-capture-meta/1", stream.read())
        self.assertEqual(sorted(os.listdir(self.directory.name)), ["model.log", "model.meta.json"])
        self.assertEqual(oct(os.stat(self.out).st_mode & 0o777), oct(0o666 & ~_umask()))


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


if __name__ == "__main__":
    unittest.main()
