"""Purpose-built captures: aliases, mutations, copies, constants, and how long tensors live."""

import json
import os
import tempfile
import unittest

import support  # noqa: F401
from support import capture_case
from capture_cases import GOLDEN_CASES
from trace_check import TraceCheck

import torch
from rematlens_capture import Capture, side_file_path

_BLOCK_STARTERS = ("CALL", "MUTATE", "COPY", "CONSTANT", "ANNOTATE")


class CaptureSemantics(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "case.log")
        torch.manual_seed(0)

    def tearDown(self):
        self.directory.cleanup()

    def lines(self, check, instruction, operator=None):
        return [(i, line) for i, line in enumerate(check.lines) if line["INSTRUCTION"] == instruction
                and (operator is None or line.get("NAME") == operator)]

    def only(self, check, instruction, operator):
        found = self.lines(check, instruction, operator)
        self.assertEqual(len(found), 1, "expected one %s %s in %s" % (instruction, operator, check.lines))
        return found[0]

    def test_views_are_aliases_of_the_argument_they_share_memory_with(self):
        x = torch.randn(4, 6)
        with Capture(self.path):
            y = x.view(24)
            z = torch.ops.aten.transpose(x, 0, 1)
            w = y * 2
        check = TraceCheck(self.path)
        view_index, view = self.only(check, "CALL", "aten::view")
        self.assertEqual(check.lines[view_index + 1]["MEMORY"], "0")
        self.assertEqual(check.lines[view_index + 2]["ALIAS"], "0")
        transpose_index, _ = self.only(check, "CALL", "aten::transpose")
        self.assertEqual(check.lines[transpose_index + 2]["ALIAS"], "0")
        mul_index, _ = self.only(check, "CALL", "aten::mul")
        self.assertEqual(check.lines[mul_index + 1]["MEMORY"], str(24 * 4))
        self.assertEqual(check.lines[mul_index + 2]["ALIAS"], "-1")
        del z, w

    def test_writes_are_mutations_but_metadata_changes_are_not(self):
        x = torch.randn(3, 4)
        out = torch.empty(3, 4)
        with Capture(self.path):
            a = x * 1
            a.relu_()
            a.t_()
            a.detach_()
            torch.add(x, x, out=out)
        check = TraceCheck(self.path)
        _, relu = self.only(check, "MUTATE", "aten::relu_")
        self.assertEqual(relu["MUTATE"], [0])
        self.assertEqual(relu["ARGS"], [check.lines[self.only(check, "CALL", "aten::mul")[0]]["RESULT"][0]])
        _, add = self.only(check, "MUTATE", "aten::add")
        self.assertEqual(add["MUTATE"], [2])
        operators = {line.get("NAME") for line in check.lines}
        self.assertNotIn("aten::t_", operators)
        self.assertNotIn("aten::detach_", operators)

    def test_detach_is_a_copy_and_item_is_skipped(self):
        x = torch.randn(5)
        with Capture(self.path):
            y = x + 1
            z = y.detach()
            value = z.sum().item()
        check = TraceCheck(self.path)
        _, copy = self.lines(check, "COPY")[0]
        add = self.only(check, "CALL", "aten::add")[1]
        self.assertEqual(copy["SRC"], add["RESULT"][0])
        self.assertTrue(check.same_tensor(copy["DST"], copy["SRC"]))
        self.assertNotIn("aten::_local_scalar_dense", {line.get("NAME") for line in check.lines})
        self.assertIsInstance(value, float)

    def test_tensors_from_before_the_capture_are_constants_unless_they_share_a_known_storage(self):
        base = torch.randn(4, 4)
        row = base[1]
        with Capture(self.path):
            a = base * 2
            b = row * 2
        check = TraceCheck(self.path)
        constants = self.lines(check, "CONSTANT")
        self.assertEqual(len(constants), 1)
        self.assertEqual(check.lines[constants[0][0] + 1]["MEMORY"], str(16 * 4))
        _, copy = self.lines(check, "COPY")[0]
        self.assertEqual(copy["SRC"], constants[0][1]["NAME"])
        del a, b

    def _tensor_lifetime(self, check, name):
        """(line of the last CALL reading name's tensor, line where its last reference goes)."""
        tensor = check.tensor_of[name]
        reads = [i for i, line in self.lines(check, "CALL")
                 if any(check.tensor_of[arg] == tensor for arg in line["ARGS"])]
        releases = [i for i, line in self.lines(check, "RELEASE") if check.tensor_of[line["NAME"]] == tensor]
        self.assertEqual(len(releases), sum(1 for n in check.tensor_of if check.tensor_of[n] == tensor),
                         "every name of %s's tensor is released once" % name)
        return reads[-1], releases[-1]

    def _calls_between(self, check, first, last):
        between = [line["INSTRUCTION"] for line in check.lines[first + 1:last]]
        self.assertTrue(all(kind in ("CALL", "MEMORY", "ALIAS", "RELEASE") for kind in between), between)
        return between.count("CALL")

    def test_saved_tensors_live_exactly_until_their_backward_has_run(self):
        x = torch.randn(6, requires_grad=True)
        w = torch.randn(6, requires_grad=True)
        with Capture(self.path) as capture:
            saved_output = x.exp()           # exp saves its result
            saved_input = x * 3              # mul saves this as an input of the next mul
            product = saved_input * w
            unsaved = x + 1                  # sum saves nothing of its input
            total = saved_output.sum() + product.sum() + unsaved.sum()
            del saved_output, saved_input, product, unsaved
            capture.backward_begins()
            total.backward()
        check = TraceCheck(self.path)
        backward = next(i for i, line in enumerate(check.lines) if line.get("ANNOTATION") == "BACKWARD")
        calls = {line["NAME"]: line for _, line in self.lines(check, "CALL")}
        exp_result = calls["aten::exp"]["RESULT"][0]
        mul_results = [line["RESULT"][0] for _, line in self.lines(check, "CALL", "aten::mul")]
        add_result = [line["RESULT"][0] for _, line in self.lines(check, "CALL", "aten::add")][0]
        # Freed as soon as the node that saved it has run: exp's backward is one mul; the mul
        # that saved its input computes both input gradients (two muls) before freeing.
        for name, calls_of_the_node_after_the_read in ((exp_result, 0), (mul_results[0], 1)):
            last_read, last_release = self._tensor_lifetime(check, name)
            self.assertGreater(last_read, backward, "%s is read by its backward" % name)
            self.assertGreater(last_release, last_read)
            self.assertEqual(self._calls_between(check, last_read, last_release), calls_of_the_node_after_the_read)
        _, unsaved_release = self._tensor_lifetime(check, add_result)
        self.assertLess(unsaved_release, backward, "a tensor nobody saved dies at its del")

    def test_releases_fall_between_blocks_and_the_end_keeps_weights_gradients_and_state(self):
        path = os.path.join(self.directory.name, "adam.log")
        capture_case(GOLDEN_CASES["optimizer-step"](), path)
        check = TraceCheck(path)  # refuses a RELEASE inside a CALL block
        with open(side_file_path(path), encoding="utf-8") as stream:
            meta = json.load(stream)
        kept = set(meta["parameters"] + meta["buffers"] + meta["gradients"] + meta["optimizer_state"])
        self.assertEqual(set(check.live_names()), kept)
        self.assertEqual(len(meta["parameters"]), 4)
        self.assertEqual(len(meta["gradients"]), 4)
        self.assertEqual(len(meta["optimizer_state"]), 12)  # step, exp_avg, exp_avg_sq per parameter
        self.assertTrue(set(meta["inputs"]).isdisjoint(check.live_names()))
        self.assertEqual(set(meta["tensors"]), set(check.tensor_of))

    def test_a_reference_cycle_frees_its_tensor_at_the_end_not_at_a_random_collection(self):
        class Node:
            pass
        x = torch.randn(4)
        with Capture(self.path):
            node = Node()
            node.itself = node
            node.tensor = x * 2
            del node
            for _ in range(50):
                y = x + 1          # allocations that could trigger a collection
            del y
        check = TraceCheck(self.path)
        cycle_tensor = self.only(check, "CALL", "aten::mul")[1]["RESULT"][0]
        last_call = self.lines(check, "CALL")[-1][0]
        release = [i for i, line in self.lines(check, "RELEASE") if line["NAME"] == cycle_tensor]
        self.assertEqual(len(release), 1)
        self.assertGreater(release[0], last_call)

    def test_time_modes(self):
        case = GOLDEN_CASES["cnn-batchnorm"]
        first, second, wall = (os.path.join(self.directory.name, n) for n in ("f1.log", "f2.log", "w.log"))
        capture_case(case(), first, time="flops")
        capture_case(case(), second, time="flops")
        with open(first, "rb") as a, open(second, "rb") as b:
            self.assertEqual(a.read(), b.read(), "flops times are deterministic")
        check = TraceCheck(first)
        times = {line["NAME"]: int(line["TIME"]) for _, line in self.lines(check, "CALL")}
        self.assertGreater(times["aten::convolution"], times["aten::relu_"] if "aten::relu_" in times else 1)
        capture_case(case(), wall, time="wall")
        wall_times = [int(line["TIME"]) for _, line in self.lines(TraceCheck(wall), "CALL")]
        self.assertTrue(all(t >= 1 for t in wall_times))
        self.assertGreater(len(set(wall_times)), 1)
        for path, mode in ((first, "flops"), (wall, "wall")):
            with open(side_file_path(path), encoding="utf-8") as stream:
                self.assertEqual(json.load(stream)["time"], mode)


if __name__ == "__main__":
    unittest.main()
