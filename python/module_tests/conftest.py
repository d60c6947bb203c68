"""What the module's tests share: the command line to compare with, traces, and a clean folder."""

import json
import os
import subprocess

import pytest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUBLIC_UNET = "unet-6-8000000000.0-2020-10-1-10-57-18-default.log"


def public_trace(name):
    """A public DTR trace where ../shared (or REMATLENS_SHARED_DIR) or the download script put it."""
    shared = os.environ.get("REMATLENS_SHARED_DIR", os.path.join(os.path.dirname(SOURCE_DIR), "shared"))
    data_home = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    for folder in (os.path.join(shared, "traces", "dtr-2020"), os.path.join(data_home, "RematLens", "traces", "dtr-2020")):
        if os.path.exists(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


@pytest.fixture
def unet():
    path = public_trace(PUBLIC_UNET)
    if path is None:
        pytest.skip("the public U-Net trace is not installed (../shared, or traces/download-dtr-traces.sh)")
    return path


def command_line(*arguments, check=True):
    """The rematlens program of this build, run with `arguments`."""
    binary = os.environ["REMATLENS_BINARY"]
    done = subprocess.run([binary, *map(str, arguments)], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError("rematlens %s failed: %s" % (" ".join(map(str, arguments)), done.stderr))
    return done


def records(path):
    """A results or map file's records, its provenance line left out."""
    with open(path) as file:
        lines = [json.loads(line) for line in file if line.strip()]
    return [line for line in lines if "provenance" not in line]


def flattened(record):
    """A record as the module's DataFrames hold it: a nested object's fields as "object.field"."""
    flat = {}
    for key, value in record.items():
        if isinstance(value, dict):
            for inner, item in value.items():
                flat[key + "." + inner] = item
        else:
            flat[key] = value
    return flat


def without_times(value):
    """A report with its wall times (fields ending in "seconds") left out, wherever they are."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if not k.endswith("seconds")}
    if isinstance(value, list):
        return [without_times(item) for item in value]
    return value
