"""The capture's errors: each is one line saying what went wrong and what to do."""

import os
import traceback

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_LONGEST = 300


class UsageError(Exception):
    """The command line asks for something that cannot be: exit status 2."""


class ModelError(Exception):
    """The model (the user's code or torchvision's) fails to build or to train: exit status 1."""


def _outside_libraries(frame):
    path = os.path.abspath(frame.filename)
    return not path.startswith(_PACKAGE_DIR) and os.sep + "torch" + os.sep not in path \
        and os.sep + "torchvision" + os.sep not in path and not frame.filename.startswith("<")


def where(error):
    """The deepest frame of the traceback in the user's own code, as 'model.py line 9, in forward'."""
    frames = traceback.extract_tb(error.__traceback__)
    own = [frame for frame in frames if _outside_libraries(frame)]
    if isinstance(error, SyntaxError) and error.filename:
        return "%s line %s" % (os.path.basename(error.filename), error.lineno)
    if not own:
        return ""
    frame = own[-1]
    return "%s line %d, in %s" % (os.path.basename(frame.filename), frame.lineno, frame.name)


def describe(error):
    """'RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x12 and 5x7) (model.py line 9, in forward)'."""
    message = " ".join(str(error.msg if isinstance(error, SyntaxError) else error).split())
    if len(message) > _LONGEST:
        message = message[:_LONGEST - 3] + "..."
    text = type(error).__name__ + (": " + message if message else "")
    place = where(error)
    return text + (" (%s)" % place if place else "")


def out_of_memory(error):
    text = str(error)
    return isinstance(error, MemoryError) or "out of memory" in text or "can't allocate memory" in text
