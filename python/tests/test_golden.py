"""The golden traces are remade byte for byte (REMATLENS_UPDATE_GOLDEN=1 rewrites them)."""

import json
import os
import tempfile
import unittest

import support  # noqa: F401  (puts the package on the path)
from capture_cases import GOLDEN_CASES
from support import GOLDEN_DIR, capture_case
from trace_check import TraceCheck

import torch


def _read(path):
    with open(path, "rb") as stream:
        return stream.read()


class GoldenTraces(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.directory.cleanup()

    def _golden_torch(self, name):
        with open(os.path.join(GOLDEN_DIR, name + ".meta.json"), encoding="utf-8") as stream:
            return json.load(stream)["torch"]

    def test_goldens_are_remade_byte_for_byte(self):
        update = os.environ.get("REMATLENS_UPDATE_GOLDEN") == "1"
        for name, make in GOLDEN_CASES.items():
            with self.subTest(case=name):
                if not update and self._golden_torch(name) != torch.__version__:
                    self.skipTest("golden %s was made with torch %s, this is %s"
                                  % (name, self._golden_torch(name), torch.__version__))
                made = os.path.join(self.directory.name, name + ".log")
                capture_case(make(), made)
                TraceCheck(made)
                for suffix in (".log", ".meta.json"):
                    golden = os.path.join(GOLDEN_DIR, name + suffix)
                    fresh = made[:-len(".log")] + suffix
                    if update:
                        with open(golden, "wb") as stream:
                            stream.write(_read(fresh))
                    self.assertEqual(_read(fresh), _read(golden), "%s differs from %s" % (fresh, golden))

    def test_a_second_capture_is_identical(self):
        first, second = (os.path.join(self.directory.name, n) for n in ("a.log", "b.log"))
        capture_case(GOLDEN_CASES["cnn-batchnorm"](), first)
        capture_case(GOLDEN_CASES["cnn-batchnorm"](), second)
        self.assertEqual(_read(first), _read(second))


if __name__ == "__main__":
    unittest.main()
