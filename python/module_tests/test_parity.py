"""The module gives what the command line gives, field for field, for the same request."""

import gzip
import json
import math
import os

import pytest

import rematlens
from conftest import SOURCE_DIR, command_line, flattened, records, without_times


def same_value(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    return a == b


def assert_rows_equal(frame, expected, skip=()):
    assert len(frame) == len(expected)
    for index, record in enumerate(expected):
        row = frame.iloc[index]
        for field, value in flattened(record).items():
            if field in skip:
                continue
            assert field in frame.columns, field
            got = row[field]
            got = got.item() if hasattr(got, "item") else got
            assert same_value(got, value), "row %d, %s: %r != %r" % (index, field, got, value)


@pytest.mark.parametrize("trace_name,start,stop,holes", [(":demo", "0.30", "0.40", 3), ("unet", "0.40", "0.45", 3)])
def test_map_equals_the_command_lines_file(trace_name, start, stop, holes, tmp_path, request):
    trace = request.getfixturevalue("unet") if trace_name == "unet" else trace_name
    out = tmp_path / "map.jsonl"
    command_line("map", trace, "--from", start, "--to", stop, "--out", out)
    m = rematlens.map(trace, float(start), float(stop), progress=False)
    for column in ("lo", "hi", "result", "clock", "evictions", "remats", "max_memory"):
        assert column in m.intervals.columns
    assert_rows_equal(m.intervals, records(out))
    assert len(m.holes) == holes
    assert m.verdict.startswith("not monotone")


@pytest.mark.parametrize("trace_name", [":demo", "unet"])
def test_sweep_equals_the_command_lines_records(trace_name, tmp_path, request):
    trace = request.getfixturevalue("unet") if trace_name == "unet" else trace_name
    out = tmp_path / "sweep.jsonl"
    command_line("sweep", trace, "--from", "0.40", "--to", "0.45", "--step", "0.001", "--policy", "DTR", "--policy",
                 "MSPS", "--out", out)
    runs = rematlens.sweep(trace, 0.40, 0.45, 0.001, policies=["DTR", "MSPS"], progress=False)
    assert_rows_equal(runs, records(out), skip={"seconds"})


def test_allocator_rows_are_the_command_lines_runs(tmp_path):
    runs = rematlens.sweep(":demo", 0.80, 1.0, 0.05, allocators=["sum", "caching"], progress=False)
    assert len(runs) == 2 * 5  # one row of the strip per model, budgets in order
    for row, model in enumerate(("sum", "caching")):
        out = tmp_path / ("%s.jsonl" % model)
        command_line("sweep", ":demo", "--from", "0.80", "--to", "1.0", "--step", "0.05", "--allocator", model,
                     "--out", out)
        assert_rows_equal(runs.iloc[5 * row:5 * row + 5].reset_index(drop=True), records(out), skip={"seconds"})


@pytest.mark.parametrize("model", ["caching", "best-fit"])
def test_map_under_a_model_equals_the_command_lines_file(model, tmp_path):
    out = tmp_path / "map.jsonl"
    command_line("map", ":demo", "--from", "0.30", "--to", "1.0", "--allocator", model, "--out", out)
    m = rematlens.map(":demo", 0.30, 1.0, allocator=model, progress=False)
    assert_rows_equal(m.intervals, records(out))
    assert set(m.intervals["allocator"]) == {model}
    assert "peak_reserved" in m.intervals.columns


def test_run_is_the_command_lines_record():
    expected = json.loads(command_line("run", ":demo", "--ratio", "0.347", "--json").stdout)
    run = rematlens.run(":demo", ratio=0.347)
    expected.pop("seconds", None)
    got = dict(run.record)
    got.pop("seconds", None)
    assert got == expected
    assert run.result == "oom"
    # Its events are the ones run --events writes, in order.
    assert set(run.events["kind"]) >= {"evict", "remat", "compute"}
    assert run.timeline["memory"].max() == run.record["max_memory"]


def test_info_holes_explain_and_rescue_are_the_command_lines():
    assert without_times(rematlens.info(":demo")) == without_times(json.loads(command_line("info", ":demo", "--json").stdout))
    holes = rematlens.holes(":demo", 0.30, 0.40, 0.001, progress=False)
    expected = json.loads(command_line("holes", ":demo", "--from", "0.30", "--to", "0.40", "--step", "0.001",
                                       "--json").stdout)
    assert len(holes) == len(expected["holes"]) == 3
    assert list(holes["first_fail_budget"]) == [h["first_fail_budget"] for h in expected["holes"]]
    story = rematlens.explain(":demo", ratio=0.347, rescue=False)
    expected_story = json.loads(command_line("explain", ":demo", "--ratio", "0.347", "--no-rescue", "--json").stdout)
    assert without_times(story) == without_times(expected_story)
    rescues = rematlens.rescue(":demo", ratio=0.347, progress=False)
    expected_rescue = json.loads(command_line("rescue", ":demo", "--ratio", "0.347", "--json").stdout)
    assert len(rescues) == len(expected_rescue["rescues"]) > 0
    assert list(rescues["tensor"]) == [r["tensor"] for r in expected_rescue["rescues"]]


@pytest.mark.parametrize("suffix,magic", [("svg", b"<svg"), ("pdf", b"%PDF"), ("png", b"\x89PNG")])
def test_figure_writes_what_its_suffix_says(suffix, magic, tmp_path):
    out = tmp_path / ("strip." + suffix)
    assert rematlens.figure("strip", ":demo", out, start=0.3, stop=0.4, step=0.01, size="single") == out
    content = out.read_bytes()
    assert magic in content[:400]


def test_synth_and_load(tmp_path):
    trace = rematlens.synth("chain", layers=8, out=tmp_path / "chain8.log")
    assert "chain8" in repr(trace)
    assert rematlens.run(trace, ratio=1.0).result == "pass"
    presets = rematlens.synth_presets()
    assert "transformer" in list(presets["name"])


def test_read_map_holds_every_record_of_a_bundled_map():
    bundled = os.path.join(SOURCE_DIR, "atlas", "maps", "unet.jsonl.gz")
    with gzip.open(bundled, "rt") as file:
        expected = [json.loads(line) for line in file if line.strip()][1:]
    m = rematlens.read_map(bundled)
    assert_rows_equal(m.intervals, expected)
    assert len(m.holes) == 3  # docs/atlas.md: U-Net's three holes over 0.10-1.00
    assert m.provenance["trace"].startswith("unet")
    big = rematlens.read_map(os.path.join(SOURCE_DIR, "atlas", "maps", "inceptionv4.jsonl.gz"))
    assert len(big.intervals) == 124779 and len(big.holes) == 14


def test_read_map_names_a_bad_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"provenance": {"range": {"from_bytes": 1, "to_bytes": 9}}}\n{"lo": 1, "hi": 5}\n')
    with pytest.raises(rematlens.InputError, match="bad.jsonl:2"):
        rematlens.read_map(bad)
    with pytest.raises(rematlens.InputError, match="nowhere"):
        rematlens.read_map(tmp_path / "nowhere.jsonl")
