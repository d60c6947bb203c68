"""CTest's entry: runs every capture test, or exits 77 (skipped) when torch is not installed."""

import os
import sys
import unittest

SKIPPED = 77

try:
    import torch  # noqa: F401
except ImportError:
    print("capture tests skipped: python3-torch is not installed (scripts/install-deps.sh --capture adds it)")
    sys.exit(SKIPPED)

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
result = unittest.TextTestRunner(verbosity=2).run(suite)
sys.exit(0 if result.wasSuccessful() else 1)
