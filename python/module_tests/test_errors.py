"""Bad input raises, with the command line's one-line message, and the interpreter goes on."""

import pytest

import rematlens
from conftest import command_line


def message_of_the_command_line(*arguments):
    done = command_line(*arguments, check=False)
    assert done.returncode != 0
    return done.stderr.strip().splitlines()[-1].removeprefix("rematlens: error: ")


def test_a_missing_trace(tmp_path):
    missing = tmp_path / "nowhere.log"
    with pytest.raises(rematlens.InputError) as raised:
        rematlens.sweep(missing, 0.4, 0.5, 0.01, progress=False)
    assert str(missing) in str(raised.value)
    assert str(raised.value) == message_of_the_command_line("sweep", missing, "--from", "0.4", "--to", "0.5", "--step", "0.01")
    with pytest.raises(rematlens.InputError):
        rematlens.load(missing)


def test_a_malformed_trace_names_the_line(tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text('{"INSTRUCTION":"CONSTANT","NAME":"w"}\nnot json\n')
    with pytest.raises(rematlens.InputError) as raised:
        rematlens.map(bad, 0.4, 0.5, progress=False)
    assert "bad.log:2" in str(raised.value)


def test_a_truncated_trace_warns_or_under_strict_raises(tmp_path):
    with open(rematlens.synth("chain", layers=6, out=tmp_path / "whole.log").path) as file:
        lines = file.readlines()
    cut = tmp_path / "cut.log"
    cut.write_text("".join(lines[: len(lines) // 3]))  # the forward pass alone: no backward
    with pytest.warns(UserWarning, match="cut.log"):
        rematlens.run(cut, ratio=1.0)
    with pytest.raises(rematlens.InputError, match="--strict refuses it"):
        rematlens.run(cut, ratio=1.0, strict=True)


def test_an_unknown_policy():
    with pytest.raises(rematlens.UsageError) as raised:
        rematlens.sweep(":demo", 0.4, 0.5, 0.01, policies=["NoSuchPolicy"], progress=False)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) == message_of_the_command_line("sweep", ":demo", "--from", "0.4", "--to", "0.5", "--step",
                                                            "0.01", "--policy", "NoSuchPolicy")


@pytest.mark.parametrize("call", [
    lambda: rematlens.run(":demo", ratio=-0.5),
    lambda: rematlens.sweep(":demo", 0.5, 0.4, 0.01, progress=False),
    lambda: rematlens.map(":demo", -1, 0.4, progress=False),
    lambda: rematlens.run(":demo"),
    lambda: rematlens.run(":demo", ratio=0.5, overhead_limit=0.5),
    lambda: rematlens.sweep(":demo", 0.4, 0.5, 0.01, threads=-2, progress=False),
    lambda: rematlens.figure("nosuchfigure", ":demo", "x.svg"),
    lambda: rematlens.synth("nosuchmodel"),
])
def test_a_ratio_or_option_out_of_range(call):
    with pytest.raises(rematlens.UsageError):
        call()


def test_a_map_file_of_another_trace(tmp_path):
    other = tmp_path / "other.jsonl"
    rematlens.map(rematlens.synth("chain", layers=6, out=tmp_path / "c.log"), 0.5, 0.6, out=other, progress=False)
    expected = message_of_the_command_line("map", ":demo", "--from", "0.5", "--to", "0.6", "--out", other)
    with pytest.raises(rematlens.InputError) as raised:
        rematlens.map(":demo", 0.5, 0.6, out=other, progress=False)
    assert str(raised.value) == expected


def test_the_interpreter_goes_on_after_every_error():
    for _ in range(3):
        with pytest.raises(rematlens.RematLensError):
            rematlens.run(":demo", ratio=0.5, policy="nope")
    assert rematlens.run(":demo", ratio=0.5).result == "pass"
