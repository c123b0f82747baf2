#!/usr/bin/env python3
"""Tests of bench/fp8.py that need no GPU:

  python3 bench/test_fp8.py            (the reference and the quantisation
                                        on the CPU: torch; every workload's
                                        sol module through the C API when
                                        sol's libsol_capi.so loads)
  SOL_OPT=build/bin/sol-opt python3 bench/test_fp8.py
                                       (also every module through sol-opt)
"""

import os
import subprocess
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fp8  # noqa: E402
import fp8_codes  # noqa: E402
from timing import (REL_TOL, rel_err, sol_module,  # noqa: E402
                    target_hbm_bytes_per_s)

# Odd shapes: M not a tile multiple, K a multiple of 16 (fp8 tensor cores).
SHAPES = [(7, 48, 32), (37, 200, 96)]


class Reference(unittest.TestCase):
    def test_reference_is_the_scaled_product(self):
        """The benchmark's float64 reference against torch._scaled_mm (its
        CPU implementation) on the same codes and scales, and against the
        bf16 implementation's dequantised operands: a wrong scale axis or
        a missing epilogue would be off by the order of the outputs."""
        for epilogue in ("residual", "bias_gelu"):
            for m, n, k in SHAPES:
                fp8_args, bf16_args, weight_only_args = fp8.inputs(
                    m, n, k, epilogue, seed=m, device="cpu")
                ref = fp8.reference(fp8_args, epilogue)
                xq, wq, sx, sw, extra = fp8_args
                h = torch._scaled_mm(xq, wq.t(), scale_a=sx,
                                     scale_b=sw[None, :],
                                     out_dtype=torch.bfloat16)
                self.assertLessEqual(
                    rel_err(fp8.epilogue_of(epilogue, h, extra), ref),
                    REL_TOL)
                xb, wb, extra = bf16_args
                got = fp8.epilogue_of(epilogue,
                                      (xb.float() @ wb.float().t()), extra)
                self.assertLessEqual(rel_err(got, ref), REL_TOL)
                # Weight-only: the bf16 activations against the codes and
                # their per-channel scale.
                xb, wq, sw, extra = weight_only_args
                got = fp8.epilogue_of(
                    epilogue, xb.float() @ (wq.float() * sw[:, None]).t(),
                    extra)
                self.assertLessEqual(rel_err(got, ref), REL_TOL)
                # One scale for the whole weight (its channels' mean) in
                # place of the per-channel ones is caught: the channels'
                # absmax differ by more than the tolerance.
                h = (xq.float() * sx) @ (wq.float() * sw.mean()).t()
                wrong = fp8.epilogue_of(epilogue, h, extra.float())
                self.assertGreater(rel_err(wrong, ref), REL_TOL)

    def test_codes_cover_the_range(self):
        """absmax / 448 maps each row onto the whole e4m3 range."""
        fp8_args, _, _ = fp8.inputs(16, 32, 64, "residual", seed=3,
                                    device="cpu")
        xq = fp8_args[0].float()
        self.assertEqual(xq.abs().amax(1).tolist(), [448.0] * 16)


# Block-wise shapes: K past one 128-deep group (the last partial; K a
# multiple of 16, as fp8 TMA rows need), N past one 128-row block of B's
# scales.
BLOCK_SHAPES = [(7, 200, 384), (37, 130, 272)]


class BlockReference(unittest.TestCase):
    def test_block_reference_is_the_sum_of_scaled_block_partials(self):
        """block_inputs' dequantised operands give the same product as
        each K block's partial sum of the codes times A's group scale of
        the row and B's block scale of the column (docs/fp8.md), computed
        here block by block; one scale per tensor in their place is off by
        more than the benchmark's tolerance."""
        for m, n, k in BLOCK_SHAPES:
            (xq, wq, sx, sw, _), (xd, wd) = fp8.block_inputs(
                m, n, k, None, seed=m, device="cpu")
            self.assertEqual(tuple(sx.shape), (m, -(-k // 128)))
            self.assertEqual(tuple(sw.shape), (-(-n // 128), -(-k // 128)))
            ref = xd @ wd.T
            blocks = torch.zeros(m, n, dtype=torch.float64)
            for kb in range(sx.shape[1]):
                cols = slice(kb * 128, min(k, kb * 128 + 128))
                partial = xq[:, cols].double() @ wq[:, cols].double().T
                column_scale = sw[:, kb].double().repeat_interleave(128)[:n]
                blocks += partial * sx[:, kb:kb + 1].double() * column_scale
            self.assertLessEqual(rel_err(blocks, ref), 1e-12)
            wrong = (xq.double() * sx.double().mean()) @ \
                (wq.double() * sw.double().mean()).T
            self.assertGreater(rel_err(wrong, ref), REL_TOL)

    def test_block_codes_cover_the_range(self):
        """absmax / 448 per 1 x 128 group and 128 x 128 block: every group
        and block holds a code of magnitude 448."""
        m, n, k = BLOCK_SHAPES[1]
        (xq, wq, _, _, _), _ = fp8.block_inputs(m, n, k, None, seed=5,
                                                device="cpu")
        for codes, rows in ((xq, 1), (wq, 128)):
            for r in range(0, codes.shape[0], rows):
                for c in range(0, k, 128):
                    self.assertEqual(codes[r:r + rows, c:c + 128].float()
                                     .abs().max().item(), 448.0)


# H200 HBM3e, datasheet (the h200 preset's peak_gbps).
H200_HBM = 4.8e12


class SpeedOfLight(unittest.TestCase):
    def test_decode_bytes_are_the_weight_codes(self):
        # 1-token decode is the weight's bytes: fp8 halves them (issue 20's
        # HBM SOL is judged on this figure), the scales, the residual and
        # the result 0.35 % of it at 2560 x 2560; prefill is not
        # weight-bound.
        n = k = 2560
        codes = fp8.hbm_ideal_us(1, n, k, "fp8", "residual", H200_HBM)
        bf16 = fp8.hbm_ideal_us(1, n, k, "bf16", "residual", H200_HBM)
        self.assertAlmostEqual(codes * H200_HBM / 1e6, n * k,
                               delta=n * k * 5e-3)
        self.assertAlmostEqual(codes / bf16, 0.5, delta=5e-3)
        # Weight-only reads the same codes (its bf16 token is 2 x 2560
        # bytes more) and at 32 rows 32 x 2560 x 2 bytes of activations.
        self.assertAlmostEqual(
            fp8.hbm_ideal_us(1, n, k, "weight_only", "residual", H200_HBM)
            / codes, 1.0, delta=5e-3)
        self.assertGreater(
            fp8.hbm_ideal_us(32, n, k, "weight_only", "residual", H200_HBM),
            fp8.hbm_ideal_us(32, n, k, "fp8", "residual", H200_HBM))
        self.assertGreater(
            fp8.hbm_ideal_us(8192, n, k, "fp8", "residual", H200_HBM),
            5 * codes)


class Modules(unittest.TestCase):
    def texts(self):
        for epilogue in ("residual", "bias_gelu"):
            for m, n, k in SHAPES:
                kinds = [(True, False), (False, False)]
                if m <= 64:   # the torch backend's WEIGHT_ONLY_ROWS
                    kinds.append((True, True))
                for quantised, weight_only in kinds:
                    yield sol_module(fp8.sol_text(m, n, k, epilogue,
                                                  quantised, weight_only))
            for m, n, k in BLOCK_SHAPES:
                yield sol_module(fp8.sol_text(m, n, k, epilogue, True,
                                              block=True))

    def test_modules_parse(self):
        sol_opt = os.environ.get("SOL_OPT")
        if not sol_opt:
            self.skipTest("no SOL_OPT")
        with tempfile.TemporaryDirectory() as tmp:
            for i, text in enumerate(self.texts()):
                path = os.path.join(tmp, f"{i}.mlir")
                with open(path, "w") as f:
                    f.write(text)
                subprocess.run([sol_opt, path, "-o", os.devnull], check=True)

    def test_modules_compile(self):
        try:
            import sol
            sol._capi.lib()
        except Exception as error:   # no library: nothing to compile with
            self.skipTest(f"libsol_capi missing: {error}")
        for text in self.texts():
            compilation = sol.compile(text)
            self.assertGreaterEqual(len(compilation.kernels), 1)

    def test_speed_of_light_is_the_target_cards(self):
        """A row's t_hbm_us uses the HBM peak of the preset the kernels were
        priced for (datasheets: H200 4.8 TB/s, H100 SXM 3.35)."""
        try:
            import sol
            sol._capi.lib()
        except Exception as error:   # no library: nothing to compile with
            self.skipTest(f"libsol_capi missing: {error}")
        text = fp8.sol_text(1, 2560, 2560, "residual", False)
        for target, peak in (("h200", 4.8e12), ("h100-sxm", 3.35e12)):
            compilation = sol.compile(sol_module(text, target=target))
            self.assertEqual(target_hbm_bytes_per_s(compilation), peak)


class Fp8Codes(unittest.TestCase):
    """bench/fp8_codes.py's layout: what its exact GPU check can see."""

    def test_every_finite_code_is_read_outside_the_nan_columns(self):
        for _, code_type, _, _ in fp8_codes.KINDS:
            finite = torch.arange(256, dtype=torch.uint8)
            finite = set(finite[torch.isfinite(
                finite.view(code_type).float())].tolist())
            for _, m in fp8_codes.CASES:
                codes = fp8_codes.weight_codes(m, code_type)
                clean = torch.isfinite(codes.view(code_type).float()).all(1)
                read = set(codes[clean][:, :m].flatten().tolist())
                self.assertEqual(read, finite, f"{code_type} at {m} rows")

    def test_nan_columns_come_from_the_codes_alone(self):
        """Rows n % 7 == 3 hold a NaN code at k = K - 1, where the one-hot
        A is zero: their columns are NaN in the reference at every row."""
        for _, code_type, _, _ in fp8_codes.KINDS:
            for _, m in fp8_codes.CASES:
                codes = fp8_codes.weight_codes(m, code_type)
                ref = fp8_codes.reference(m, codes, code_type)
                poisoned = torch.arange(fp8_codes.N) % 7 == 3
                self.assertTrue(torch.isnan(ref[:, poisoned]).all())
                clean = torch.isfinite(codes.view(code_type).float()).all(1)
                values = codes.view(code_type).double()[:, :m].T
                self.assertTrue(torch.equal(
                    ref[:, clean], values[:, clean]
                    * fp8_codes.column_scale()[clean]))

    def test_every_case_compiles_to_its_path(self):
        try:
            import sol
            sol._capi.lib()
        except Exception as error:   # no library: nothing to compile with
            self.skipTest(f"libsol_capi missing: {error}")
        for path, m in fp8_codes.CASES:
            for code_name, _, elem_name, _ in fp8_codes.KINDS:
                kernels = sol.compile(fp8_codes.module(m, code_name, elem_name),
                                      options=f"paths={path}").kernels
                self.assertEqual(len(kernels), 1)
                self.assertEqual(kernels[0].manifest["plan"]["path"], path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
