"""Long work in a notebook: Ctrl+C stops it within half a second, a map keeps what it wrote and
resumes from it; progress reaches the caller; the caller chooses the threads."""

import os
import signal
import threading
import time

import pytest

import rematlens


@pytest.fixture(scope="module")
def long_trace(tmp_path_factory):
    """A 12-layer transformer: its map over 0.10-1.00 takes seconds on one thread."""
    return rematlens.synth("transformer", layers=12, out=tmp_path_factory.mktemp("traces") / "transformer12.log")


def interrupt_after(seconds):
    sent = {}

    def send():
        sent["at"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Timer(seconds, send).start()
    return sent


def test_ctrl_c_stops_a_map_within_half_a_second_and_it_resumes(long_trace, tmp_path):
    out = tmp_path / "map.jsonl"
    sent = interrupt_after(0.8)
    with pytest.raises(KeyboardInterrupt):
        rematlens.map(long_trace, 0.10, 1.00, threads=1, out=out, progress=False)
    stopped_after = time.monotonic() - sent["at"]
    assert stopped_after < 0.5, "stopped %.3f s after Ctrl+C" % stopped_after
    kept = [line for line in out.read_text().splitlines() if line.strip()][1:]
    assert len(kept) > 0  # what finished is in the file
    whole = rematlens.map(long_trace, 0.10, 1.00, threads=2, out=out, progress=False)
    assert whole.summary["DTR"]["intervals_from_file"] >= len(kept)
    assert whole.summary["DTR"]["unmapped"] == []


def test_ctrl_c_stops_a_sweep_within_half_a_second(long_trace):
    sent = interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        rematlens.sweep(long_trace, 0.10, 1.00, 0.0001, threads=1, progress=False)
    assert time.monotonic() - sent["at"] < 0.5


def test_progress_reaches_the_caller():
    told = []
    rematlens.sweep(":demo", 0.1, 1.0, 0.001, threads=2, progress=lambda *args: told.append(args))
    assert told, "no progress was told"
    label, done, total, finished = told[-1]
    assert label == "sweep" and finished
    assert all(t == 901 for _, _, t, f in told if not f)


def test_the_default_text_bar_and_no_bar(long_trace, capsys):
    # The bar draws what the progress told before the end: the sweep must outlast the 50 ms the
    # request waits between two looks (about half a second; the demo's 75 ms was too close).
    rematlens.sweep(long_trace, 0.1, 1.0, 0.0005, threads=1)
    assert "sweep" in capsys.readouterr().err
    rematlens.sweep(":demo", 0.1, 0.2, 0.01, progress=False)
    assert capsys.readouterr().err == ""


def test_threads_are_the_callers():
    for threads in (1, 2):
        runs = rematlens.sweep(":demo", 0.3, 0.4, 0.01, threads=threads, progress=False)
        assert len(runs) == 11
