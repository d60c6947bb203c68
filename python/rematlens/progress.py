"""The text bar a request shows when no progress callable is given."""

import sys
import time


class TextProgress:
    """`sweep  412/901  45% [#############----------------]` on stderr, redrawn in place at
    most five times a second (a notebook shows it under the cell)."""

    def __init__(self, stream=None, width=30):
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._drawn = 0.0
        self._shown = False

    def __call__(self, label, done, total, finished):
        now = time.monotonic()
        if finished:
            if self._shown:
                self._draw(label, total, total)
                self.stream.write("\n")
                self.stream.flush()
            self._shown = False
            return
        if total and now - self._drawn >= 0.2:
            self._drawn = now
            self._shown = True
            self._draw(label, done, total)

    def _draw(self, label, done, total):
        if not total:
            return
        filled = int(self.width * done / total)
        self.stream.write("\r%s  %d/%d  %3d%% [%s%s]" % (label, done, total, 100 * done // total, "#" * filled,
                                                        "-" * (self.width - filled)))
        self.stream.flush()
