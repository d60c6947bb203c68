"""Every golden trace is read by `rematlens info` and replayed by `rematlens sweep` at 0.1 .. 1.0."""

import json
import os
import subprocess
import tempfile
import unittest

from capture_cases import GOLDEN_CASES
from support import GOLDEN_DIR, rematlens_binary


# An optimizer step mutates weights and optimizer state in place: simrd's eager runtime keeps the
# pinned constants beside their new versions, while its baseline (the banishing runtime) frees
# them, so such a trace runs out of memory at its own baseline (see the README).
PASSES_AT_ITS_BASELINE = {"mlp", "cnn-batchnorm", "lstm", "tied-weights"}


@unittest.skipUnless(rematlens_binary(), "REMATLENS_BINARY is not set (CTest sets it to the built rematlens)")
class RematLensReadsCaptures(unittest.TestCase):
    def rematlens(self, *arguments):
        result = subprocess.run([rematlens_binary(), *arguments], capture_output=True, text=True, timeout=300)
        self.assertEqual(result.returncode, 0, "rematlens %s: %s" % (" ".join(arguments), result.stderr))
        return result.stdout

    def test_info_and_sweep(self):
        for name in GOLDEN_CASES:
            trace = os.path.join(GOLDEN_DIR, name + ".log")
            with self.subTest(trace=name):
                info = json.loads(self.rematlens("info", trace, "--json"))
                self.assertGreater(info["baseline_memory"], 0)
                self.assertGreater(info["baseline_compute"], 0)
                with tempfile.TemporaryDirectory() as directory:
                    records_file = os.path.join(directory, "sweep.jsonl")
                    self.rematlens("sweep", trace, "--from", "0.1", "--to", "1.0", "--step", "0.1",
                                   "--out", records_file)
                    with open(records_file, encoding="utf-8") as stream:
                        records = [json.loads(line) for line in stream if '"ratio"' in line]
                ratios = sorted(round(r["ratio"], 3) for r in records)
                self.assertEqual(ratios, [round(0.1 * k, 3) for k in range(1, 11)])
                full_budget = [r for r in records if abs(r["ratio"] - 1.0) < 1e-9][0]
                self.assertIn(full_budget["result"], ("pass", "oom", "thrash"))
                if name in PASSES_AT_ITS_BASELINE:
                    self.assertEqual(full_budget["result"], "pass")
                    self.assertEqual(full_budget["remat_compute"], 0 if name != "cnn-batchnorm" else 1)


if __name__ == "__main__":
    unittest.main()
