"""A file written beside its target under a temporary name and renamed into place when complete."""

import os
import tempfile


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


class PendingFile:
    """open, write to .stream, then commit() (rename onto the target, atomic on one file system)
    or discard(): until commit() an earlier file at the target stays exactly as it was."""

    def __init__(self, path):
        self.path = str(path)
        directory, base = os.path.split(os.path.abspath(self.path))
        descriptor, self.temporary = tempfile.mkstemp(prefix="." + base + ".", suffix=".part", dir=directory)
        os.fchmod(descriptor, 0o666 & ~_umask())  # as a plain open() would create it, not mkstemp's 0600
        self.stream = os.fdopen(descriptor, "w", encoding="utf-8")

    def commit(self):
        self.stream.close()
        os.replace(self.temporary, self.path)

    def discard(self):
        self.stream.close()
        try:
            os.unlink(self.temporary)
        except FileNotFoundError:
            pass
