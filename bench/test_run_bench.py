#!/usr/bin/env python3
"""Tests of bench/run_bench.py that need no GPU:

  python3 bench/test_run_bench.py            (stdlib and sol's package with its
                                              libsol_capi.so, $SOL_CAPI_LIB or
                                              build/lib; matplotlib and torch
                                              tests run when they import)
  SOL_BENCH_BUNDLE=bench-bundle python3 bench/test_run_bench.py
                                             (also checks the real manifests
                                              that scripts/bench-bundle.sh built)

The arithmetic is pinned to ../shared/PEERS.md's figures: if these drift,
the table no longer compares with the peers' numbers.
"""

import copy
import json
import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench as rb  # noqa: E402

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False
try:
    import torch  # noqa: F401
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def nums(workload, dtype="fp16"):
    return rb.workload_numbers(rb.workload_spec(workload), dtype)


def fake_manifest(order=("x", "w", "r"), dtype="f16", x=(2, 8, 64), n=48):
    """A manifest as lib/Transforms/WriteManifests.cpp writes it, for
    out = x @ w^T + r with its inputs in `order`."""
    k = x[-1]
    shapes = {"x": list(x), "w": [n, k], "r": list(x[:-1]) + [n]}
    args = [{"name": "arg%d" % i, "role": "input", "dtype": dtype, "shape": shapes[name]}
            for i, name in enumerate(order)]
    args.append({"name": "out0", "role": "output", "dtype": dtype, "shape": shapes["r"]})
    idx = {name: i for i, name in enumerate(order)}
    program = [{"op": "arg", "index": i} for i in range(3)]
    program.append({"op": "matmul", "dtype": dtype, "shape": shapes["r"],
                    "operands": [idx["x"], idx["w"]], "transpose_b": True})
    program.append({"op": "add", "dtype": dtype, "shape": shapes["r"], "operands": [3, idx["r"]]})
    return {"kernel": "oproj_prefill_fp16_matmul_0", "ptx": "k.ptx", "cubin": "k.cubin",
            "target": {"name": "h200", "chip": "sm_90a", "l2_bytes": 6e7,
                       "peak_tflops": 989, "peak_gbps": 4800},
            "launch": {"grid": [20, 64], "block": [128], "smem": 61440},
            "args": args, "program": program, "outputs": [4],
            "plan": {"path": "mma_sync", "tile": [128, 128, 32]},
            "cost": {"tc_flops": 1.0, "ew_flops": 2.0, "bytes": 3.0, "t_ideal_us": 108.57,
                     "t_pred_us": 182.25, "sol_pred": 0.596, "bound": "compute"}}


def fake_rows():
    rows = []
    times = {("oproj_prefill", "sol"): 423.0, ("oproj_prefill", "eager"): 174.0,
             ("oproj_prefill", "cublas_addmm"): 187.8, ("oproj_prefill", "inductor"): 174.7,
             ("oproj_decode1", "sol"): 13.4, ("oproj_decode1", "eager"): 9.1,
             ("mlp_up_gelu", "sol"): 1765.0, ("mlp_up_gelu", "eager"): 776.6,
             ("swiglu_residual", "sol"): 225.0, ("swiglu_residual", "inductor"): 122.7}
    for (w, impl), us in times.items():
        for dtype in ("fp16", "bf16"):
            row = rb.new_row(w, dtype, impl)
            row.update(**{"pass": True, "max_rel_err": 3e-3, "timing": "graph"})
            rb.derive_rates(row, rb.workload_spec(w), dtype, us,
                            {"t_pred_us": us / 2.3} if impl == "sol" else None)
            if impl == "sol":
                row.update(predicted_us=us / 2.3, sol_pred=0.6)
            rows.append(row)
    failed = rb.new_row("mlp_up_gelu", "fp16", "inductor_max_autotune")
    failed.update(error="correctness: 12.0000% within tolerance, 0 NaN/Inf", max_rel_err=3.0)
    rows.append(failed)
    skipped = rb.new_row("mlp_up_gelu", "bf16", "inductor_max_autotune")
    skipped["error"] = "skipped: max-autotune only for fp16 (--max-autotune-dtypes)"
    rows.append(skipped)
    return rows


def fake_doc(rows):
    meta = {}
    for w in rb.WORKLOADS:
        for d in rb.DTYPES:
            meta["%s/%s" % (w, d)] = nums(w, d)
    return {"date": "2026-11-30", "card": "NVIDIA H200", "torch": "2.11.0+cu130",
            "method": {}, "workloads": meta, "rows": rows}


class TwoNumbers(unittest.TestCase):
    """FLOPs, bytes and T_ideal against PEERS.md and sol-run's bench.log."""

    def test_oproj_prefill(self):
        n = nums("oproj_prefill")
        self.assertEqual(n["flops"], 2 * 8192 * 2560 * 2560)
        self.assertAlmostEqual(n["bytes"] / 1e6, 138.9, delta=0.05)
        self.assertAlmostEqual(n["t_ideal_us"], 108.6, delta=0.05)   # PEERS.md
        # sol's manifests count tensor-core FLOPs alone: 108.57 in bench.log.
        self.assertAlmostEqual(rb.t_ideal_us(n["flops"], n["bytes"]), 108.57, delta=0.005)
        self.assertAlmostEqual(n["intensity"], 773, delta=1)
        self.assertEqual(n["bound"], "compute")

    def test_decode(self):
        n = nums("oproj_decode1")
        self.assertAlmostEqual(n["t_ideal_us"], 2.73, delta=0.005)   # PEERS.md
        self.assertEqual(n["bound"], "memory")
        self.assertAlmostEqual(nums("oproj_decode16")["t_ideal_us"], 2.78, delta=0.005)

    def test_mlp_and_swiglu(self):
        # PEERS.md's MLP SOLs imply 435.1 us: the epilogue's 10 FLOP/element count.
        self.assertAlmostEqual(nums("mlp_up_gelu")["t_ideal_us"], 435.13, delta=0.01)
        self.assertAlmostEqual(nums("swiglu_residual")["t_ideal_us"], 111.85, delta=0.01)
        self.assertEqual(nums("swiglu_residual")["flops"], 0)
        self.assertEqual(nums("swiglu_residual")["ew_flops"], 7 * 8192 * 8192)
        self.assertEqual(nums("oproj_prefill", "bf16"), nums("oproj_prefill", "fp16"))

    def test_peers_sol_figures(self):
        # (workload, eager us, SOL) from PEERS.md's table.
        for w, us, sol in [("oproj_prefill", 174.0, 0.624), ("oproj_decode1", 9.1, 0.300),
                           ("mlp_up_gelu", 759.4, 0.573), ("mlp_up_gelu", 757.2, 0.575),
                           ("mlp_up_gelu", 828.4, 0.525), ("mlp_up_gelu", 817.9, 0.532),
                           ("oproj_prefill", 169.5, 0.641), ("oproj_prefill", 187.8, 0.578),
                           ("oproj_decode16", 9.1, 0.305), ("mlp_up_gelu", 776.6, 0.560),
                           ("swiglu_residual", 122.7, 0.912), ("swiglu_residual", 255.2, 0.438),
                           ("oproj_decode1", 6.2, 0.444)]:
            row = rb.derive_rates({}, rb.workload_spec(w), "fp16", us)
            # PEERS.md rounds us to 0.1: allow for that, and for SOL's last digit.
            self.assertAlmostEqual(row["sol"], sol, delta=sol * 0.05 / us + 0.0005, msg=(w, us))

    def test_bench_log_rates(self):
        # sol-run's first timing: o_proj prefill 423.03 us -> 253.9 TFLOP/s, 328.4 GB/s.
        row = rb.derive_rates({}, rb.workload_spec("oproj_prefill"), "fp16", 423.03,
                              {"t_pred_us": 182.25})
        self.assertAlmostEqual(row["tflops"], 253.8, delta=0.2)
        self.assertAlmostEqual(row["gbps"], 328.4, delta=0.2)
        self.assertAlmostEqual(row["sol"], 0.257, delta=0.0005)
        self.assertAlmostEqual(row["t_pred_over_t_measured"], 0.431, delta=0.0005)

    def test_input_sets_exceed_twice_l2(self):
        for w in rb.WORKLOADS:
            spec = rb.workload_spec(w)
            b = rb.input_bytes(spec, "fp16")
            n = rb.num_sets(b)
            self.assertGreater(n * b, 2 * rb.L2_BYTES, w)
            if n > 1:
                self.assertLessEqual((n - 1) * b, 2 * rb.L2_BYTES, w)
        self.assertEqual(rb.num_sets(rb.input_bytes(rb.workload_spec("oproj_decode1"), "fp16")), 10)
        # x, W and r: 97 MB, so two sets.
        self.assertEqual(rb.num_sets(rb.input_bytes(rb.workload_spec("oproj_prefill"), "fp16")), 2)
        self.assertEqual(rb.num_sets(rb.input_bytes(rb.workload_spec("mlp_up_gelu"), "fp16")), 2)
        self.assertEqual(rb.num_sets(rb.input_bytes(rb.workload_spec("swiglu_residual"), "fp16")), 1)

    def test_tiny_shapes(self):
        spec = rb.workload_spec("mlp_up_gelu", tiny=True)
        self.assertEqual(spec["inputs"], [("x", (24, 64)), ("w", (80, 64)), ("b", (80,))])
        self.assertEqual(spec["output"], (24, 80))


class Manifests(unittest.TestCase):
    """The bench's view of a manifest; the checks are the launcher's own
    (sol.check_manifest: runtime/Manifest.cpp through the C API)."""

    def parse(self, doc):
        return rb.parse_manifest(json.dumps(doc), "/bundle/k")

    def test_parse(self):
        m = self.parse(fake_manifest())
        self.assertEqual(m["grid"], (20, 64, 1))
        self.assertEqual(m["block"], (128, 1, 1))
        self.assertEqual(m["smem"], 61440)
        self.assertEqual(m["cubin"], "/bundle/k/k.cubin")
        self.assertEqual(len(m["inputs"]), 3)
        self.assertEqual(m["outputs"][0]["shape"], (2, 8, 48))
        self.assertEqual(m["cost"]["t_pred_us"], 182.25)

    def test_rejects(self):
        cases = []
        d = fake_manifest(); del d["kernel"]; cases.append((d, "kernel"))
        d = fake_manifest(); d["launch"]["grid"] = [0]; cases.append((d, "grid"))
        d = fake_manifest(); d["args"].insert(0, d["args"].pop()); cases.append((d, "follows an output"))
        d = fake_manifest(); d["args"][0]["dtype"] = "f64"; cases.append((d, "dtype"))
        d = fake_manifest(); d["program"][4]["operands"] = [5, 2]; cases.append((d, "earlier"))
        d = fake_manifest(); d["outputs"] = []; cases.append((d, "outputs"))
        d = fake_manifest(); del d["ptx"]; del d["cubin"]; cases.append((d, "cubin"))
        d = fake_manifest(); d["program"][0]["index"] = 3; cases.append((d, "reads output"))
        for doc, word in cases:
            with self.assertRaises(rb.ManifestError) as ctx:
                self.parse(doc)
            self.assertIn(word, str(ctx.exception))
        with self.assertRaises(rb.ManifestError):
            rb.parse_manifest("{not json", "/")

    def test_tensor_maps_and_cluster_are_optional(self):
        m = self.parse(fake_manifest())
        self.assertEqual(m["cluster"], (1, 1, 1))
        self.assertEqual(m["tensor_maps"], [])

    def test_bind_in_order(self):
        spec = rb.workload_spec("oproj_prefill", tiny=True)
        self.assertEqual(rb.bind_args(self.parse(fake_manifest()), spec, "fp16"), ["x", "w", "r"])

    def test_bind_follows_the_program(self):
        # x and r have the same shape: only the program tells them apart.
        spec = rb.workload_spec("oproj_prefill", tiny=True)
        m = self.parse(fake_manifest(order=("r", "w", "x")))
        self.assertEqual(rb.bind_args(m, spec, "fp16"), ["r", "w", "x"])

    def test_bind_rejects_mismatch(self):
        spec = rb.workload_spec("oproj_prefill", tiny=True)
        with self.assertRaises(rb.ManifestError):
            rb.bind_args(self.parse(fake_manifest(dtype="bf16")), spec, "fp16")
        with self.assertRaises(rb.ManifestError):
            rb.bind_args(self.parse(fake_manifest(n=64)), spec, "fp16")

    def test_bundle_layout(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "kernels", "oproj_prefill_fp16"))
            with open(os.path.join(d, "kernels", "bundle.json"), "w") as f:
                json.dump({"workloads": {}}, f)
            with open(os.path.join(d, "kernels", "oproj_prefill_fp16", "a.json"), "w") as f:
                json.dump(fake_manifest(), f)
            k = rb.find_kernels_dir(d)
            self.assertEqual(k, os.path.join(d, "kernels"))
            self.assertEqual(len(rb.bundle_manifests(k, "oproj_prefill", "fp16")), 1)
            with self.assertRaises(FileNotFoundError):
                rb.bundle_manifests(k, "oproj_prefill", "bf16")


# Named by SOL_BENCH_BUNDLE, the bundle must be there: the lit test
# (test/Python/run_bench.py) builds one with scripts/bench-bundle.sh and names
# it, so in CI a missing or broken bundle fails RealBundle. Run by hand
# without it, the test looks for ./bench-bundle and is skipped without one.
@unittest.skipUnless(os.environ.get("SOL_BENCH_BUNDLE") or
                     os.path.isfile(os.path.join(ROOT, "bench-bundle", "bench-kernels.tgz")),
                     "no bundle (scripts/bench-bundle.sh; SOL_BENCH_BUNDLE=DIR requires one)")
class RealBundle(unittest.TestCase):
    """The manifests sol-opt wrote: the launcher's reader takes them, they
    bind, and their cost numbers agree with the bench's own two numbers."""

    def test_every_workload(self):
        k = rb.find_kernels_dir(os.environ.get("SOL_BENCH_BUNDLE") or os.path.join(ROOT, "bench-bundle"))
        for w in rb.WORKLOADS:
            for d in rb.DTYPES:
                paths = rb.bundle_manifests(k, w, d)
                self.assertEqual(len(paths), 1, (w, d))
                m = rb.load_manifest(paths[0])
                spec = rb.workload_spec(w)
                order = rb.bind_args(m, spec, d)
                self.assertEqual(order, [n for n, _ in spec["inputs"]], (w, d))
                self.assertTrue(m["cubin"] and os.path.getsize(m["cubin"]) > 0)
                n = rb.workload_numbers(spec, d)
                c = m["cost"]
                self.assertAlmostEqual(c["tc_flops"], n["flops"], delta=1, msg=(w, d))
                self.assertAlmostEqual(c["bytes"], n["bytes"], delta=1, msg=(w, d))
                self.assertAlmostEqual(c["ew_flops"], n["ew_flops"], delta=1, msg=(w, d))
                self.assertAlmostEqual(c["t_ideal_us"], n["t_ideal_us"],
                                       delta=0.005 * n["t_ideal_us"], msg=(w, d))
                self.assertGreater(c["t_pred_us"], 0)


class Reports(unittest.TestCase):
    def test_table(self):
        table = rb.format_table(fake_rows())
        lines = table.splitlines()
        self.assertIn("best peer", lines[0])
        self.assertIn("max-autotune us (SOL)", lines[0])
        prefill = [l for l in lines if l.startswith("oproj_prefill") and "fp16" in l][0]
        self.assertIn("423.0 (0.257)", prefill)
        self.assertIn("174.0 (0.624)", prefill)
        self.assertIn("eager 174.0", prefill)
        self.assertIn("0.41x", prefill)  # 174.0 / 423.0
        mlp = [l for l in lines if l.startswith("mlp_up_gelu") and "fp16" in l][0]
        self.assertIn("FAIL", mlp)
        mlp_bf16 = [l for l in lines if l.startswith("mlp_up_gelu") and "bf16" in l][0]
        self.assertIn("skipped", mlp_bf16)
        # Ten (workload, dtype) groups appear once each, in first-seen order.
        self.assertEqual(len([l for l in lines if l.split() and l.split()[0] in rb.WORKLOADS]), 8)

    def test_schema(self):
        doc = fake_doc(fake_rows())
        self.assertEqual(rb.validate_results(doc), [])
        json.loads(json.dumps(doc))
        bad = copy.deepcopy(doc)
        del bad["card"]
        bad["rows"][0]["us"] = "fast"
        del bad["rows"][0]["predicted_us"]
        bad["rows"][-2]["us"] = 5.0  # a failed row with a time
        problems = rb.validate_results(bad)
        self.assertEqual(len(problems), 4, problems)

    def test_card_slug(self):
        self.assertEqual(rb.card_slug("NVIDIA H200"), "h200")
        self.assertEqual(rb.card_slug("NVIDIA H100 80GB HBM3"), "h100-80gb-hbm3")
        self.assertEqual(rb.card_slug("cpu"), "cpu")

    @unittest.skipUnless(HAVE_MPL, "matplotlib missing")
    def test_roofline(self):
        doc = fake_doc(fake_rows())
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.png")
            n = rb.write_roofline(doc["rows"], path, doc["workloads"], "test")
            self.assertEqual(n, 20)
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            if os.environ.get("SOL_BENCH_KEEP_PNG"):
                import shutil
                shutil.copy(path, os.environ["SOL_BENCH_KEEP_PNG"])

    def test_args(self):
        o = rb.parse_args(["--workloads", "oproj_decode1", "--impls", "sol,eager", "--quick"])
        self.assertEqual(o.workloads, ["oproj_decode1"])
        self.assertEqual(o.dtypes, ["fp16", "bf16"])
        self.assertEqual(o.replays, rb.QUICK_REPLAYS)
        self.assertEqual(o.max_autotune_dtypes, ["fp16"])
        import contextlib
        import io
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            rb.parse_args(["--impls", "cutlass"])


@unittest.skipUnless(HAVE_TORCH, "torch missing (CPU torch is enough)")
class ClockSampling(unittest.TestCase):
    def test_median_of_the_samples_while_the_block_runs(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "fake-smi")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\nprintf '1500\\n1395\\n1980\\n'\nexec sleep 30\n")
            os.chmod(fake, 0o755)
            with rb.ClockSampler(command=(fake,)) as clock:
                time.sleep(0.3)
            self.assertEqual(clock.mhz, 1500)
            self.assertEqual(clock.between(0, time.monotonic()), (1500, None))
            self.assertEqual(clock.between(0, 1), (None, None))

    def test_clock_and_power_in_a_window(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "nvidia-smi")
            with open(fake, "w") as f:
                f.write("#!/bin/sh\nprintf '1410, 690.5\\n1470, [N/A]\\n"
                        "1500, 700.0\\n'\nexec sleep 30\n")
            os.chmod(fake, 0o755)
            with rb.ClockSampler(command=(fake,)) as clock:
                time.sleep(0.3)
            self.assertEqual(clock.mhz, 1470)
            self.assertEqual(clock.between(0, time.monotonic()),
                             (1470, 695.25))

    def test_none_without_nvidia_smi(self):
        with rb.ClockSampler(command=("no-such-smi-here",)) as clock:
            pass
        self.assertIsNone(clock.mhz)


@unittest.skipUnless(HAVE_TORCH, "torch missing (CPU torch is enough)")
class TorchOnCpu(unittest.TestCase):
    """Inputs, reference, the check and the eager peers, on tiny CPU shapes."""

    @classmethod
    def setUpClass(cls):
        rb.import_torch()

    def test_inputs_never_zero_and_seeded(self):
        spec = rb.workload_spec("swiglu_residual", tiny=True)
        a = rb.make_inputs(spec, "bf16", "cpu", 1, 0)
        b = rb.make_inputs(spec, "bf16", "cpu", 1, 0)
        c = rb.make_inputs(spec, "bf16", "cpu", 1, 1)
        for name in a:
            self.assertEqual(a[name].dtype, torch.bfloat16)
            self.assertFalse(bool((a[name] == 0).any()))
            self.assertTrue(torch.equal(a[name], b[name]))
            self.assertFalse(torch.equal(a[name], c[name]))
            self.assertLessEqual(float(a[name].abs().max()), 1.0)

    def test_check(self):
        ref = torch.linspace(-3, 3, 1000, dtype=torch.float64)
        r = rb.check(ref.half(), ref)
        self.assertTrue(r["pass"], r)
        self.assertLess(r["max_rel_err"], 1e-3)
        bad = ref.half().clone()
        bad[:20] += 1  # 2 % wrong: fails the 99 % rule
        self.assertFalse(rb.check(bad, ref)["pass"])
        nan = ref.half().clone()
        nan[5] = float("nan")  # one NaN fails whatever the share
        r = rb.check(nan, ref)
        self.assertFalse(r["pass"])
        self.assertEqual(r["nonfinite"], 1)
        self.assertFalse(rb.check(ref[:10].half(), ref)["pass"])

    def test_peers_on_cpu(self):
        for w in rb.WORKLOADS:
            spec = rb.workload_spec(w, tiny=True)
            for d in rb.DTYPES:
                inputs = rb.make_inputs(spec, d, "cpu", 7, 0)
                ref = rb.reference(spec, inputs)
                self.assertEqual(tuple(ref.shape), spec["output"])
                args = [inputs[n] for n, _ in spec["inputs"]]
                for impl in ("eager", "cublas_addmm"):
                    if not rb.applicable(impl, spec["kind"]):
                        continue
                    fn = rb.eager_fn(spec["kind"]) if impl == "eager" else rb.cublas_fn(spec["kind"])
                    r = rb.check(fn(*args), ref)
                    self.assertTrue(r["pass"], (w, d, impl, r))


def tma_manifest(cluster=None):
    """fake_manifest with the maps a wgmma_tma plan writes (WriteManifests):
    x as [rows, K] in 16 x 64 boxes, w ([N, K]) in 24 x 64 boxes."""
    d = fake_manifest()
    d["tensor_maps"] = [
        {"arg": 0, "dtype": "f16", "dims": [64, 16], "box": [64, 16],
         "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"},
        {"arg": 1, "dtype": "f16", "dims": [64, 48], "box": [64, 24],
         "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero"}]
    if cluster is not None:
        d["launch"]["cluster"] = cluster
    return d


class TensorMapsAndClusters(unittest.TestCase):
    """The bench reads maps and clusters as the launch library checks them
    (runtime/Launch.h; LaunchTest.cpp pins the encoding)."""

    def parse(self, doc):
        return rb.parse_manifest(json.dumps(doc), "/bundle/k")

    def test_parse(self):
        m = self.parse(tma_manifest(cluster=[2, 1, 1]))
        self.assertEqual(m["cluster"], (2, 1, 1))
        self.assertEqual(len(m["tensor_maps"]), 2)
        self.assertEqual(self.parse(tma_manifest(cluster=[4]))["cluster"], (4, 1, 1))

    def test_manifest_errors_name_the_map(self):
        d = tma_manifest()
        d["tensor_maps"][1]["arg"] = 4
        with self.assertRaises(rb.ManifestError) as ctx:
            self.parse(d)
        self.assertIn("tensor_maps[1]", str(ctx.exception))
        self.assertIn("out of range", str(ctx.exception))
        d = tma_manifest()
        d["tensor_maps"][0]["box"] = [128, 16]
        with self.assertRaises(rb.ManifestError) as ctx:
            self.parse(d)
        self.assertIn("tensor_maps[0]", str(ctx.exception))
        with self.assertRaises(rb.ManifestError) as ctx:
            self.parse(tma_manifest(cluster=[3]))
        self.assertIn("cluster", str(ctx.exception))


FAKE_DRIVER = os.environ.get("SOL_FAKE_CUDA_DRIVER") or os.path.join(
    ROOT, "build", "unittests", "libSolFakeCudaDriver.so")
# The C API dlopens this driver the first time it needs one (once per
# process): the fake, for every test here.
if os.path.isfile(FAKE_DRIVER):
    os.environ.setdefault("SOL_CAPI_LIBCUDA", FAKE_DRIVER)


@unittest.skipUnless(os.path.isfile(FAKE_DRIVER), "no fake CUDA driver (cmake --build build)")
class LaunchThroughFakeDriver(unittest.TestCase):
    """The sol launch (sol.Kernel, the C API's launch library) against the
    runner's fake driver, whose "add_f32" kernel computes out = a + b over
    15 floats by reading its kernelParams as the real driver does (params[i]
    points at pointer i)."""

    def manifest(self, d, kernel="add_f32", smem=0, cubin=True, raw=False):
        path = os.path.join(d, "k.cubin")
        with open(path, "wb") as f:
            f.write(b"fake cubin")
        doc = {"kernel": kernel, "ptx": "k.ptx",
               "launch": {"grid": [1], "block": [32], "smem": smem},
               "args": [{"name": "a", "role": "input", "dtype": "f32", "shape": [3, 5]},
                        {"name": "b", "role": "input", "dtype": "f32", "shape": [3, 5]},
                        {"name": "out", "role": "output", "dtype": "f32", "shape": [3, 5]}],
               "program": [{"op": "arg", "index": 0}, {"op": "arg", "index": 1},
                           {"op": "add", "dtype": "f32", "shape": [3, 5], "operands": [0, 1]}],
               "outputs": [2]}
        if cubin:
            doc["cubin"] = "k.cubin"
        return doc if raw else rb.parse_manifest(json.dumps(doc), d)

    def test_launch_passes_pointers_in_args_order(self):
        import ctypes
        with tempfile.TemporaryDirectory() as d:
            k = rb.SolKernel(self.manifest(d, smem=64 * 1024), with_torch=False)
            self.assertTrue(k.binary.endswith("k.cubin"))
            self.assertIsNone(k.note)
            self.assertEqual(k.attributes, {"max_threads": 1024, "static_smem": 0,
                                            "local_bytes": 0, "regs": 32})
            a = (ctypes.c_float * 15)(*range(15))
            b = (ctypes.c_float * 15)(*[100.0 * i for i in range(15)])
            out = (ctypes.c_float * 15)(*[float("nan")] * 15)
            params = k.params_from_pointers([ctypes.addressof(x) for x in (a, b, out)])
            k.launch(params)
            self.assertEqual(list(out), [101.0 * i for i in range(15)])
            with self.assertRaises(ValueError):
                k.params_from_pointers([ctypes.addressof(a)])
            k.close()

    def record(self):
        """The fake's first counters (FakeCudaDriver.h): launches,
        launchesEx, encodes, mapMismatches, allocations, frees,
        synchronizes."""
        import ctypes
        lib = ctypes.CDLL(FAKE_DRIVER)
        lib.fakeCudaReset.restype = None
        return lib, (ctypes.c_int * 7).in_dll(lib, "fakeCudaRecord")

    def aligned(self, values, keep):
        """A 256-byte aligned float buffer holding `values`: its address."""
        import ctypes
        raw = ctypes.create_string_buffer(4 * len(values) + 256)
        keep.append(raw)
        address = (ctypes.addressof(raw) + 255) // 256 * 256
        (ctypes.c_float * len(values)).from_address(address)[:] = values
        return address

    def test_tensor_maps_follow_the_pointers(self):
        import ctypes
        lib, record = self.record()
        lib.fakeCudaReset()
        with tempfile.TemporaryDirectory() as d:
            doc = self.manifest(d, kernel="add_f32_tma", raw=True)
            for a in doc["args"]:
                a["shape"] = [3, 8]
            doc["program"][2]["shape"] = [3, 8]
            doc["tensor_maps"] = [
                {"arg": 0, "dtype": "f32", "dims": [8, 3], "box": [8, 3]},
                {"arg": 1, "dtype": "f32", "dims": [8, 3], "box": [4, 1], "swizzle": "32B"}]
            k = rb.SolKernel(rb.parse_manifest(json.dumps(doc), d), with_torch=False)
            keep = []
            a = self.aligned([float(i) for i in range(24)], keep)
            b = self.aligned([100.0 * i for i in range(24)], keep)
            out = self.aligned([float("nan")] * 24, keep)
            params = k.params_from_pointers([a, b, out])
            self.assertEqual(len(params), 3)
            # The library encodes each map over its arg's buffer at the
            # launch (the fake kernel checks map i against pointer i).
            k.launch(params)
            self.assertEqual(list((ctypes.c_float * 24).from_address(out)),
                             [101.0 * i for i in range(24)])
            self.assertEqual(list(record)[:4], [1, 0, 2, 0])
            # Another buffer set gets its own maps; the first set's still work.
            a2 = self.aligned([1.0] * 24, keep)
            k.launch(k.params_from_pointers([a2, b, out]))
            self.assertEqual((ctypes.c_float * 24).from_address(out)[2], 201.0)
            k.launch(params)
            self.assertEqual((ctypes.c_float * 24).from_address(out)[2], 202.0)
            self.assertEqual(list(record)[:4], [3, 0, 6, 0])
            # Nothing on the device for the maps, nothing synchronized.
            self.assertEqual(list(record)[4:7], [0, 0, 0])
            # A misaligned buffer is refused before the driver sees it.
            with self.assertRaises(rb.CudaError) as ctx:
                k.launch(k.params_from_pointers([a + 4, b, out]))
            self.assertIn("tensor_maps[0]: the buffer of arg 0", str(ctx.exception))
            k.close()

    def test_cluster_launch_goes_through_launch_kernel_ex(self):
        import ctypes
        lib, record = self.record()
        lib.fakeCudaReset()
        with tempfile.TemporaryDirectory() as d:
            doc = self.manifest(d, raw=True)
            doc["launch"].update(grid=[4, 2], cluster=[2, 2])
            k = rb.SolKernel(rb.parse_manifest(json.dumps(doc), d), with_torch=False)
            a = (ctypes.c_float * 15)(*range(15))
            b = (ctypes.c_float * 15)(*[100.0 * i for i in range(15)])
            out = (ctypes.c_float * 15)()
            k.launch(k.params_from_pointers([ctypes.addressof(x) for x in (a, b, out)]))
            self.assertEqual(list(out), [101.0 * i for i in range(15)])
            self.assertEqual(list(record)[:3], [1, 1, 0])
            k.close()

    def test_errors_name_the_call(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(rb.CudaError) as ctx:
                rb.SolKernel(self.manifest(d, kernel="nope"), with_torch=False)
            self.assertIn("kernel entry 'nope' not found", str(ctx.exception))
            k = rb.SolKernel(self.manifest(d, kernel="add_f32_launch_fails"), with_torch=False)
            with self.assertRaises(rb.CudaError) as ctx:
                k.launch(k.params_from_pointers([8, 8, 8]))
            self.assertIn("kernel 'add_f32_launch_fails': cuLaunchKernel failed: "
                          "CUDA_ERROR_LAUNCH_FAILED (fake error)", str(ctx.exception))
            # The fake rejects an image starting with FAIL: the cubin fails,
            # the PTX is tried next, and without one the error lists both.
            m = self.manifest(d)
            with open(os.path.join(d, "k.cubin"), "wb") as f:
                f.write(b"FAIL")
            with self.assertRaises(rb.CudaError) as ctx:
                rb.SolKernel(m, with_torch=False)
            self.assertIn("cannot load module", str(ctx.exception))
            self.assertIn("ptxas fatal: fake syntax error", str(ctx.exception))
            with open(os.path.join(d, "k.ptx"), "wb") as f:
                f.write(b".version 8.0")
            k = rb.SolKernel(m, with_torch=False)
            self.assertTrue(k.binary.endswith("k.ptx"))
            self.assertIn("JIT from PTX", k.note)


if __name__ == "__main__":
    unittest.main(verbosity=2)
