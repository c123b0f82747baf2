#!/usr/bin/env python3
"""Tests of bench/sweep.py and bench/sweep_report.py that need no GPU:

  python3 bench/test_sweep.py         (the report, the shape table, the
                                       split and the modules: stdlib only;
                                       the epilogues against the float64
                                       reference and the plan lookup when
                                       torch imports; the dry run's C API
                                       compile when sol's libsol_capi.so
                                       loads, $SOL_CAPI_LIB or build/lib)
  SOL_OPT=build/bin/sol-opt python3 bench/test_sweep.py
                                      (also every module through sol-opt's
                                       parser and one through --sol-to-ptx)
"""

import contextlib
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import types
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep  # noqa: E402
import sweep_report as report  # noqa: E402

try:
    import torch
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

HERE = os.path.dirname(os.path.abspath(__file__))


def row(impl, us, m=16, n=4096, k=4096, model="llama3-8b", layer="q",
        dtype="bf16", epilogue="none", ok=True, **extra):
    out = {"model": model, "layer": layer, "also": [], "n": n, "k": k,
           "layout": "nk", "m": m, "dtype": dtype, "epilogue": epilogue,
           "impl": impl, "us": us if ok else None, "ok": ok,
           "rel_err": 1e-3 if ok else 0.5}
    out.update(extra)
    return out


def doc(rows, left=()):
    return {"card": "NVIDIA H200", "date": "2026-12-01", "torch": "2.11",
            "rows": rows, "left": list(left)}


class ReportClasses(unittest.TestCase):
    def test_each_shape_in_one_class(self):
        cases = {(1, 128256, 4096): "decode_1", (1, 8, 4096): "decode_1",
                 (16, 1024, 4096): "small_n", (999, 512, 3584): "small_n",
                 (2, 4096, 4096): "skinny", (37, 14336, 4096): "skinny",
                 (64, 28672, 8192): "skinny", (999, 4096, 4096): "ragged",
                 (3001, 768, 768): "ragged", (1024, 4096, 4096): "large",
                 (8192, 152064, 3584): "large", (128, 4096, 4096): "other",
                 (512, 14336, 4096): "other", (16, 768, 768): "other",
                 (4096, 2304, 768): "other"}
        for (m, n, k), name in cases.items():
            self.assertEqual(report.shape_class(m, n, k), name, (m, n, k))


class ReportFigures(unittest.TestCase):
    def setUp(self):
        # skinny: sol 10 us against eager 12 and inductor 8 (best 8: 0.8x),
        # and 20 against addmm 30 (1.5x); large: 100 against eager 90.
        self.rows = [
            row("sol", 10.0, m=16, plan="mma_sync16x64", t_pred_us=11.0,
                t_pred_m=16),
            row("eager", 12.0, m=16), row("inductor", 8.0, m=16),
            row("inductor_max_autotune", 5.0, m=16),
            row("sol", 20.0, m=32, epilogue="residual", t_pred_us=30.0,
                t_pred_m=32),
            row("eager", 40.0, m=32, epilogue="residual"),
            row("addmm", 30.0, m=32, epilogue="residual"),
            # priced at another M: no model error counted
            row("sol", 100.0, m=1024, t_pred_us=50.0, t_pred_m=8192),
            row("eager", 90.0, m=1024),
            # a failed sol check and a failed peer
            row("sol", None, m=8, ok=False, error="SolError: no plan"),
            row("eager", 5.0, m=8),
            row("inductor", None, m=1024, ok=False),
            # a sol row without a timed peer
            row("sol", 7.0, m=4, t_pred_us=7.0, t_pred_m=4),
        ]
        stopped = doc(self.rows, ["x-none-bf16"])
        stopped["fatal"] = ("x-none-bf16 M=8 sol: SolError: illegal memory "
                            "access")
        self.summary = report.summarize([stopped])

    def test_ratios_per_class(self):
        classes = {c["name"]: c for c in self.summary["classes"]}
        self.assertEqual(set(classes), {"skinny", "large"})
        skinny = classes["skinny"]
        self.assertEqual(skinny["rows"], 2)
        self.assertAlmostEqual(skinny["geomean"], math.sqrt(0.8 * 1.5))
        self.assertAlmostEqual(skinny["min"], 0.8)
        self.assertEqual(skinny["wins"], 1)
        self.assertAlmostEqual(classes["large"]["geomean"], 0.9)
        overall = self.summary["overall"]
        self.assertEqual(overall["rows"], 3)
        self.assertAlmostEqual(overall["geomean"],
                               (0.8 * 1.5 * 0.9) ** (1 / 3))

    def test_cost_model_error_only_where_priced_at_m(self):
        skinny = next(c for c in self.summary["classes"]
                      if c["name"] == "skinny")
        # |11/10 - 1| = 0.1 and |30/20 - 1| = 0.5
        self.assertAlmostEqual(skinny["model_err_median"], 0.3)
        large = next(c for c in self.summary["classes"]
                     if c["name"] == "large")
        self.assertIsNone(large["model_err_median"])
        self.assertEqual(large["model_rows"], 0)

    def test_worst_failed_and_left(self):
        worst = self.summary["worst"]
        self.assertEqual([w["ratio"] for w in worst], sorted(
            w["ratio"] for w in worst))
        self.assertAlmostEqual(worst[0]["ratio"], 0.8)
        self.assertEqual(worst[0]["peer"], "inductor")
        self.assertEqual(len(self.summary["failed"]), 1)
        self.assertEqual(self.summary["failed_peers"], {"inductor": 1})
        self.assertEqual(self.summary["no_peer"], 1)
        self.assertEqual(self.summary["left"], ["x-none-bf16"])
        self.assertEqual(self.summary["max_autotune"]["rows"], 1)
        self.assertAlmostEqual(self.summary["max_autotune"]["geomean"], 0.5)

    def test_peer_choice(self):
        with_autotune = report.summarize(
            [doc(self.rows)], peers=["eager", "inductor_max_autotune"])
        skinny = next(c for c in with_autotune["classes"]
                      if c["name"] == "skinny")
        self.assertAlmostEqual(skinny["min"], 0.5)

    def test_peers_from_the_sol_rows_file(self):
        # The same sol row in a second file, against a much faster peer
        # there: the first file's row and peers are the ones counted.
        second = doc([row("sol", 10.0, m=16), row("eager", 1.0, m=16)])
        summary = report.summarize([doc(self.rows), second])
        self.assertEqual(summary["overall"]["rows"], 3)
        self.assertAlmostEqual(summary["worst"][0]["ratio"], 0.8)
        # A file of peers alone gives the sol rows of another no peer.
        apart = report.summarize([doc([row("sol", 10.0, m=16)]),
                                  doc([row("eager", 1.0, m=16)])])
        self.assertEqual(apart["overall"]["rows"], 0)
        self.assertEqual(apart["no_peer"], 1)

    def test_decode_against_hbm(self):
        # 128256 x 4096 bf16 = 1.05 GB in 250 us = 4.2 TB/s: 87.6 % of 4.8.
        rows = [row("sol", 250.0, m=1, n=128256, layer="lm_head"),
                row("eager", 260.0, m=1, n=128256, layer="lm_head"),
                row("sol", 5.0, m=1, n=1024), row("eager", 6.0, m=1, n=1024)]
        summary = report.summarize([doc(rows)])
        self.assertEqual(len(summary["decode_hbm"]), 1)
        self.assertAlmostEqual(summary["decode_hbm"][0]["hbm_fraction"],
                               128256 * 4096 * 2 / 250e-6 / 4.8e12)

    def test_text_and_markdown(self):
        text = report.format_report(self.summary)
        self.assertIn("skinny", text)
        self.assertIn("0.900x", text)
        self.assertIn("Failed checks: 1 sol row(s); inductor 1.", text)
        self.assertIn("SolError: no plan", text)
        self.assertIn("Against max-autotune-no-cudagraphs: geomean 0.500x",
                      text)
        self.assertIn("Items not finished: x-none-bf16.", text)
        self.assertIn("A part stopped, its CUDA context lost: x-none-bf16 M=8",
                      text)
        markdown = report.format_report(self.summary, markdown=True)
        self.assertIn("| class | rows | geomean |", markdown)
        self.assertIn("| skinny | 2 | 1.095x | 0.800x | 1 | 30.0 % | 2 |",
                      markdown)
        self.assertIn("median \\|t_pred/us-1\\|", markdown)
        self.assertIn("sol ran mma_sync16x64 (1), ? (1)", text)

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, rows in enumerate((self.rows[:7], self.rows[7:])):
                paths.append(os.path.join(d, f"part{i}.json"))
                with open(paths[-1], "w") as f:
                    json.dump(doc(rows), f)
            out = subprocess.run(
                [sys.executable, os.path.join(HERE, "sweep_report.py")] +
                paths + ["--markdown"], capture_output=True, text=True,
                check=True).stdout
        self.assertIn("(2 file(s), 3 rows)", out)
        self.assertIn("| all | 3 |", out)


class Shapes(unittest.TestCase):
    def test_issue_models_and_real_numbers(self):
        for model in ("llama3-8b", "llama3-70b", "mistral-7b", "qwen2.5-7b",
                      "gpt2", "mixtral-8x7b"):
            self.assertIn(model, sweep.DEFAULT_MODELS)
        layers = {(m, layer): (n, k) for m in sweep.CONFIGS
                  for layer, n, k, _, _ in sweep.model_layers(
                      sweep.CONFIGS[m])}
        self.assertEqual(layers[("llama3-8b", "qkv")], (6144, 4096))
        self.assertEqual(layers[("llama3-70b", "down")], (8192, 28672))
        self.assertEqual(layers[("qwen2.5-7b", "k|v")], (512, 3584))
        self.assertEqual(layers[("gpt2", "c_attn")], (2304, 768))
        self.assertEqual(layers[("mixtral-8x7b", "router")], (8, 4096))

    def test_shared_shapes_measured_once(self):
        items = sweep.items_for(sweep.DEFAULT_MODELS, ["fp16"])
        ids = [i.id for i in items]
        self.assertEqual(len(ids), len(set(ids)))
        q = next(i for i in items if i.id == "4096x4096-none-fp16")
        self.assertEqual((q.model, q.layer), ("llama3-8b", "q"))
        self.assertIn("mistral-7b/o", q.also)
        self.assertIn("mixtral-8x7b/expert gate|up", next(
            i for i in items if i.id == "14336x4096-silu_mul-fp16").also)
        gpt2 = [i for i in items if i.model == "gpt2"]
        self.assertEqual({i.layout for i in gpt2 if i.layer != "lm_head"},
                         {"kn"})
        self.assertEqual(len(sweep.items_for(sweep.DEFAULT_MODELS,
                                             sweep.DTYPES)), 2 * len(items))

    def test_split_covers_every_item_once(self):
        items = sweep.items_for(list(sweep.CONFIGS), sweep.DTYPES)
        for parts in (1, 3, 10):
            split = sweep.split(items, parts)
            self.assertEqual(sorted(i.id for p in split for i in p),
                             sorted(i.id for i in items))
            loads = [sum(sweep.estimate_s(i) for i in p) for p in split]
            biggest = max(sweep.estimate_s(i) for i in items)
            self.assertLessEqual(max(loads) - min(loads), biggest)
            again = sweep.split(sweep.items_for(list(sweep.CONFIGS),
                                                sweep.DTYPES), parts)
            self.assertEqual([[i.id for i in p] for p in split],
                             [[i.id for i in p] for p in again])

    def test_row_item_is_the_item_id(self):
        for item in sweep.items_for(["gpt2", "qwen2.5-7b"], ["bf16"]):
            fields = dict(n=item.n, k=item.k, layout=item.layout,
                          epilogue=item.epilogue, dtype=item.dtype)
            self.assertEqual(sweep.row_item(fields), item.id)

    def test_module_per_epilogue(self):
        by_id = {i.id: i for i in sweep.items_for(["gpt2", "qwen2.5-7b"],
                                                  ["bf16"])}
        text = sweep.sol_function(by_id["768x3072-kn-bias_residual-bf16"])
        self.assertIn("%w: tensor<3072x768xbf16>, %b: tensor<768xbf16>, "
                      "%r: tensor<?x768xbf16>", text)
        self.assertNotIn("transpose_b", text)
        self.assertEqual(text.count("sol.add"), 2)
        text = sweep.sol_function(by_id["3072x768-kn-bias_gelu-bf16"])
        self.assertIn("sol.gelu tanh", text)
        text = sweep.sol_function(by_id["18944x3584-silu_mul-bf16"])
        self.assertEqual(text.count("sol.matmul"), 2)
        self.assertEqual(text.count("transpose_b"), 2)
        self.assertIn("sol.silu %h", text)
        text = sweep.sol_text(by_id["512x3584-bias-bf16"])
        self.assertIn("min = 1, max = 8192, hints = [1, 2, 3,", text)

    def test_arguments(self):
        args = sweep.parse_args(["--out", "x.json", "--part", "2/5",
                                 "--models", "gpt2", "--ms", "1,37"])
        self.assertEqual(args.part, (2, 5))
        self.assertEqual(args.ms, [1, 37])
        self.assertEqual(sweep.parse_args(["--dry-run", "--models",
                                           "all"]).models, list(sweep.CONFIGS))
        picked = sweep.parse_args(["--dry-run", "--models", "all", "--items",
                                   "8x4096-none-bf16,768x768-kn-none-fp16"])
        self.assertEqual([i.id for i in sweep.part_items(picked)[1]],
                         ["768x768-kn-none-fp16", "8x4096-none-bf16"])
        with self.assertRaises(SystemExit):
            sweep.part_items(sweep.parse_args(["--dry-run", "--items",
                                               "1x1-none-fp16"]))
        for bad in (["--part", "6/5"], ["--impls", "cutlass"],
                    ["--ms", "9000"], ["--models", "gpt5"], []):
            with self.assertRaises(SystemExit), \
                    contextlib.redirect_stderr(io.StringIO()):
                sweep.parse_args(bad + ([] if bad == [] else ["--dry-run"]))

    @unittest.skipUnless(os.environ.get("SOL_OPT"), "no SOL_OPT")
    def test_sol_opt_takes_every_module(self):
        with tempfile.TemporaryDirectory() as d:
            sweep.main(["--emit-mlir", d, "--models", "all"])
            names = sorted(os.listdir(d))
            self.assertEqual(len(names), len(sweep.items_for(
                list(sweep.CONFIGS), sweep.DTYPES)))
            # One sol-opt for all of them: --split-input-file parses each
            # module on its own.
            joined = os.path.join(d, "all.mlir.txt")
            with open(joined, "w") as out:
                for name in names:
                    with open(os.path.join(d, name)) as f:
                        out.write(f.read() + "\n// -----\n")
            parsed = subprocess.run(
                [os.environ["SOL_OPT"], joined, "--split-input-file"],
                check=True, capture_output=True, text=True).stdout
            self.assertEqual(parsed.count("func.func @sweep_"), len(names))
            out = os.path.join(d, "ptx")
            subprocess.run([os.environ["SOL_OPT"], os.path.join(
                d, "768x3072-kn-bias_residual-bf16.mlir"), "-o", os.devnull,
                f"--sol-to-ptx=out-dir={out} cubin=false"], check=True)
            with open(os.path.join(out, "sweep_768x3072_kn_bias_residual_"
                                   "bf16_matmul_0.json")) as f:
                manifest = json.load(f)
            self.assertEqual(manifest["dynamic_dim"]["hints"], sweep.MS)


@unittest.skipUnless(HAVE_TORCH, "torch missing")
class Epilogues(unittest.TestCase):
    """Every implementation's torch code against the float64 reference, on
    the CPU in float32 at small widths (the formulas, not the kernels)."""

    def test_peers_match_the_reference(self):
        torch.manual_seed(0)
        for epilogue in sweep.EPILOGUE_ARGS:
            for layout in ("nk", "kn"):
                item = sweep.Item("t", "t", 48, 40, layout, epilogue, "fp16")
                shape = (48, 40) if layout == "nk" else (40, 48)
                named = {"w": torch.randn(shape) / 7,
                         "wu": torch.randn(shape) / 7,
                         "b": torch.randn(48), "r": torch.randn(5, 48)}
                args = [torch.randn(5, 40)] + [
                    named[a] for a in sweep.EPILOGUE_ARGS[epilogue]]
                ref = sweep.reference(item, args)
                self.assertEqual(ref.dtype, torch.float64)
                for impl, fn in sweep.torch_fns(item).items():
                    err = sweep.rel_err(fn(*args), ref)
                    # On the CPU torch._addmm_activation's GELU is erf's
                    # (on CUDA cuBLASLt's and its fallback are tanh's): the
                    # two differ by 1e-4 of the output here.
                    cpu_erf = (impl, epilogue) == ("addmm", "bias_gelu")
                    self.assertLess(err, 1e-3 if cpu_erf else 1e-5,
                                    (epilogue, layout, impl))
                # The epilogue is visible: the plain matmul is far off.
                if epilogue != "none":
                    plain = sweep.reference(sweep.Item(
                        "t", "t", 48, 40, layout, "none", "fp16"), args[:2])
                    self.assertGreater(sweep.rel_err(plain, ref), 0.1)

    def test_addmm_rows(self):
        has = {(e, lay): sweep.has_impl(sweep.Item("t", "t", 8, 8, lay, e,
                                                   "fp16"), "addmm")
               for e in sweep.EPILOGUE_ARGS for lay in ("nk", "kn")}
        self.assertEqual(sorted(k for k, v in has.items() if v),
                         [("bias", "nk"), ("bias_gelu", "kn"),
                          ("bias_gelu", "nk"), ("residual", "kn"),
                          ("residual", "nk")])

    def test_rotation_and_marks(self):
        item = sweep.Item("t", "t", 64, 32, "nk", "residual", "fp16")
        args = [torch.zeros(4, 32), torch.zeros(64, 32), torch.zeros(4, 64)]
        per_set = (4 * 32 + 64 * 32 + 4 * 64) * 4
        sets = sweep.rotation(args, 10 * per_set + 1)
        self.assertEqual(len(sets), 11)
        self.assertIs(sets[0], args)
        self.assertEqual(len({s[1].data_ptr() for s in sets}), 11)
        self.assertEqual(len(sweep.rotation(args, 0)), 1)
        marked = sweep.marked_dynamic(item, sets[:2])
        for views in marked:
            self.assertIn(0, getattr(views[0], "_dynamo_dynamic_indices", ()))
            self.assertIn(0, getattr(views[2], "_dynamo_dynamic_indices", ()))
            self.assertFalse(getattr(views[1], "_dynamo_dynamic_indices",
                                     set()))
        self.assertFalse(getattr(args[0], "_dynamo_dynamic_indices", set()))
        calls = []
        step = sweep.rotating(lambda *a: calls.append(a[1]), sets[:3])
        for _ in range(4):
            step()
        self.assertEqual([c.data_ptr() for c in calls],
                         [sets[i][1].data_ptr() for i in (0, 1, 2, 0)])

    def test_plan_at(self):
        class Kernel:
            def __init__(self, manifest):
                self.manifest = manifest

        def entry(lo, hi, path, tile, cost=None, **plan):
            out = {"m_min": lo, "m_max": hi,
                   "plan": dict(path=path, tile=tile, **plan)}
            if cost:
                out["cost"] = {"t_pred_us": cost}
            return out

        gemm = {"kernel": "k0", "dynamic_dim": {"min": 1, "max": 8192},
                "cost": {"t_pred_us": 900.0},
                "cost_at": [{"m": 1, "t_pred_us": 5.0},
                            {"m": 8192, "t_pred_us": 900.0}],
                "plans": [entry(1, 1, "gemv", [1, 4, 8]),
                          entry(2, 100, "mma_sync", [16, 64, 64], 20.0,
                                split_k=4),
                          entry(101, 8192, "wgmma_tma", [128, 192, 64],
                                schedule="pingpong", cluster=2)]}
        ew = {"kernel": "k1", "dynamic_dim": {"min": 1, "max": 8192},
              "cost_at": [{"m": 1, "t_pred_us": 1.0},
                          {"m": 8192, "t_pred_us": 3.0}],
              "cost": {"t_pred_us": 3.0},
              "plans": [entry(1, 8192, "elementwise", [256])]}

        class Compilation:
            kernels = [Kernel(gemm), Kernel(ew)]

        self.assertEqual(sweep.sol_plan_at(Compilation, 1),
                         ("gemv1x4+elementwise", 6.0, 1))
        # Priced at the row's end (100) and the range's (8192): the figure
        # says so.
        self.assertEqual(sweep.sol_plan_at(Compilation, 37),
                         ("mma_sync16x64/sk4+elementwise", 23.0, 8192))
        plan, _, at = sweep.sol_plan_at(Compilation, 8192)
        self.assertEqual((plan, at),
                         ("wgmma_tma128x192.pingpong/c2+elementwise", 8192))


@unittest.skipUnless(HAVE_TORCH, "torch missing")
class CpuLoop(unittest.TestCase):
    """The measuring loop on the CPU, sol's compile and kernels replaced by
    a fake: a right kernel for GELU, a wrong one for attn.c_proj's residual
    and a compile error for mlp.c_proj's (their rows must fail and stay
    untimed), the rows, the resume and the budget."""

    ARGS = ["--models", "gpt2", "--epilogues", "bias_residual,bias_gelu",
            "--dtypes", "bf16", "--ms", "1,3", "--heat-s", "0",
            "--budget-s", "1e6"]

    def setUp(self):
        self.items = sweep.items_for(["gpt2"], ["bf16"],
                                     ["bias_residual", "bias_gelu"])
        self.compiles = []
        self.fault = False
        manifest = {"kernel": "k", "dynamic_dim": {"min": 1, "max": 8192},
                    "cost": {"t_pred_us": 99.0},
                    "cost_at": [{"m": m, "t_pred_us": float(m)}
                                for m in sweep.MS],
                    "plans": [{"m_min": 1, "m_max": 8192,
                               "plan": {"path": "mma_sync",
                                        "tile": [16, 64, 64]}}]}

        def compile_(text, options=None):
            item = next(i for i in self.items if sweep.sol_text(i) == text)
            self.compiles.append(item.id)
            if item.k == 3072:
                raise sol.SolError("<input>:3:8: error: no plan (fake)")
            return types.SimpleNamespace(
                kernels=[types.SimpleNamespace(manifest=manifest)],
                item=item)

        def runner(compilation):
            item = compilation.item

            def run(args):
                if self.fault and item.epilogue == "bias_gelu":
                    raise RuntimeError("CUDA error: an illegal memory access "
                                       "was encountered")
                out = sweep.reference(item, args).to(args[0].dtype)
                return [out + 1 if item.epilogue == "bias_residual" else out]
            return run

        import sol
        self.patches = [mock.patch.object(sweep, "DEVICE", "cpu"),
                        mock.patch.object(sweep, "sol_runner", runner),
                        mock.patch.object(sol, "compile", compile_),
                        mock.patch.object(sol, "build_id", lambda: "f" * 64)]
        for patch in self.patches:
            patch.start()
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "sweep.json")

    def tearDown(self):
        for patch in self.patches:
            patch.stop()
        self.dir.cleanup()

    def run_sweep(self, *extra, status=0):
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(sweep.main(["--out", self.out] + self.ARGS +
                                        list(extra)), status)
        with open(self.out) as f:
            return json.load(f)

    def test_rows_resume_and_budget(self):
        doc = self.run_sweep()
        ids = [i.id for i in self.items]
        self.assertEqual(doc["done"], ids)
        self.assertEqual(doc["left"], [])
        self.assertEqual(doc["card"], "cpu")
        rows = {(r["n"], r["k"], r["m"], r["impl"]): r for r in doc["rows"]}
        # GELU: sol, eager, addmm (bias + GELU), inductor at 2 M; the two
        # residual items have no addmm.
        self.assertEqual(len(doc["rows"]), 8 + 2 * 6)
        for m in (1, 3):
            good = rows[(3072, 768, m, "sol")]
            self.assertTrue(good["ok"])
            self.assertGreater(good["us"], 0)
            self.assertEqual((good["plan"], good["t_pred_us"],
                              good["t_pred_m"]), ("mma_sync16x64", m, m))
            self.assertEqual(good["compile_s"] is None, m != 1)
            for impl in ("eager", "addmm", "inductor"):
                peer = rows[(3072, 768, m, impl)]
                self.assertTrue(peer["ok"], peer)
                self.assertGreater(peer["us"], 0)
            self.assertIn("first_call_s", rows[(3072, 768, m, "inductor")])
            bad = rows[(768, 768, m, "sol")]
            self.assertFalse(bad["ok"])
            self.assertIsNone(bad["us"])
            self.assertGreater(bad["rel_err"], sweep.REL_TOL)
            self.assertTrue(rows[(768, 768, m, "eager")]["ok"])
            unbuilt = rows[(768, 3072, m, "sol")]
            self.assertEqual((unbuilt["ok"], unbuilt["us"], unbuilt["error"]),
                             (False, None, "SolError: <input>:3:8: error: "
                              "no plan (fake)"))
            self.assertTrue(rows[(768, 3072, m, "inductor")]["ok"])
        self.assertEqual(sorted(doc["plan_tables"]),
                         sorted(i for i in ids if "x3072-" not in i))
        # The report reads it: one GELU row per M against its peers, the
        # four failed sol rows counted as failed checks.
        summary = report.summarize([doc])
        self.assertEqual(summary["overall"]["rows"], 2)
        self.assertEqual(len(summary["failed"]), 4)

        # Resumed: nothing is compiled or measured again.
        compiled = len(self.compiles)
        again = self.run_sweep("--resume", self.out)
        self.assertEqual(len(self.compiles), compiled)
        self.assertEqual(again["rows"], doc["rows"])
        # Out of budget before the first compile: nothing measured, every
        # item left, and still a file.
        os.remove(self.out)
        spent = self.run_sweep("--budget-s", "0")
        self.assertEqual((spent["rows"], spent["done"], spent["left"]),
                         ([], [], ids))

    def test_graphs_timing_says_how_it_timed(self):
        """--graphs times through time_graph_call, one call per input set
        at least (here on the CPU it falls back to time_call and says so:
        `timing` is "calls"); without it rows carry no `timing`."""
        seen = []
        real = sweep.time_graph_call

        def recording(fn, heat_s, calls):
            seen.append(calls)
            return real(fn, heat_s, calls=calls)
        with mock.patch.object(sweep, "time_graph_call", recording):
            doc = self.run_sweep("--graphs")
        timed = [r for r in doc["rows"] if r["us"] is not None]
        self.assertTrue(timed)
        self.assertEqual({r["timing"] for r in timed}, {"calls"})
        self.assertTrue(seen and all(c >= 20 for c in seen))
        os.remove(self.out)
        plain = self.run_sweep()
        self.assertFalse(any("timing" in r for r in plain["rows"]))

    def test_a_faulting_kernel_stops_the_part(self):
        self.fault = True
        doc = self.run_sweep(status=1)
        ids = [i.id for i in self.items]
        self.assertEqual(doc["done"], ids[:1])
        self.assertEqual(doc["left"], ids[1:])
        self.assertIn(f"{ids[1]} M=1 sol: RuntimeError: CUDA error: an "
                      "illegal memory access", doc["fatal"])
        self.assertEqual(doc["rows"][-1]["impl"], "sol")
        self.assertFalse(doc["rows"][-1]["ok"])


def capi_loads():
    try:
        import sol
        sol.version()
        return True
    except Exception:
        return False


@unittest.skipUnless(HAVE_TORCH, "torch missing")
@unittest.skipUnless(capi_loads(), "libsol_capi missing")
class DryRun(unittest.TestCase):
    def test_compiles_one_item_and_prices_every_m(self):
        out = subprocess.run(
            [sys.executable, os.path.join(HERE, "sweep.py"), "--dry-run",
             "--models", "gpt2", "--epilogues", "bias_residual",
             "--dtypes", "bf16", "--compile", "1"],
            capture_output=True, text=True, check=True).stdout
        self.assertIn("2 items in 1 parts", out)
        self.assertIn("768x768-kn-bias_residual-bf16: compiled in", out)
        priced = [line for line in out.splitlines()
                  if line.startswith("  M=")]
        self.assertEqual(len(priced), len(sweep.MS))
        self.assertFalse([line for line in priced if "(at M=" in line])


if __name__ == "__main__":
    unittest.main(verbosity=2)
