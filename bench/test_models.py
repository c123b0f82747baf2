#!/usr/bin/env python3
"""Tests of bench/models.py that need no GPU: its table on synthetic rows
(each mode against its own Inductor, the median over rounds, a row whose
logits failed their check, a mode not run).

    python3 bench/test_models.py
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


def row(impl, ms, ok=True, phase="prefill", batch=4, tokens=512):
    return {"model": "llama", "phase": phase, "batch": batch,
            "tokens": tokens, "impl": impl, "ms": ms, "ok": ok}


class TableTest(unittest.TestCase):
    def cells(self, rows):
        lines = models.table(rows).splitlines()
        header = [c.strip() for c in lines[0].strip("|").split("|")]
        body = [[c.strip() for c in line.strip("|").split("|")]
                for line in lines[2:]]
        return header, body

    def test_each_mode_against_its_own_inductor(self):
        # sol in CUDA graphs against Inductor in CUDA graphs, not against
        # plain Inductor (which is slower here and would flatter sol).
        header, body = self.cells([
            row("inductor", 4.0), row("sol", 5.0),
            row("inductor_cudagraphs", 1.0), row("sol_cudagraphs", 2.0)])
        got = dict(zip(header, body[0]))
        self.assertEqual(got["Inductor / sol"], "0.80x")
        self.assertEqual(got["the same, CUDA graphs"], "0.50x")

    def test_median_over_rounds_and_a_failed_check(self):
        header, body = self.cells([
            row("inductor", 3.0), row("inductor", 1.0), row("inductor", 2.0),
            row("sol", 1.0, ok=False)])
        got = dict(zip(header, body[0]))
        self.assertEqual(got["inductor"], "2.000")
        self.assertEqual(got["sol"], "1.000 (!)")
        self.assertEqual(got["Inductor / sol"], "2.00x")

    def test_a_mode_not_run_has_no_ratio(self):
        header, body = self.cells([
            row("inductor", 2.0), row("sol", 1.0),
            row("inductor_cudagraphs", 1.0)])
        got = dict(zip(header, body[0]))
        self.assertEqual(got["the same, CUDA graphs"], "-")
        self.assertEqual(got["Inductor / sol"], "2.00x")

    def test_prefill_rows_before_decode_rows(self):
        _, body = self.cells([
            row("sol", 1.0, phase="decode", batch=1),
            row("sol", 2.0, phase="prefill", batch=4)])
        self.assertEqual([b[1] for b in body], ["prefill", "decode"])


if __name__ == "__main__":
    unittest.main()
