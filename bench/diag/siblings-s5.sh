#!/usr/bin/env bash
# 2026-11-30, fifth session: sibling matmuls, SwiGLU's gate and up
# projections as one kernel (one matmul of twice the width, two weights'
# boxes per stage). In one device call:
#  1. correctness on odd shapes at every tile sol-tile offers the pair
#     (plan_check.py's swiglu epilogue, against float64);
#  2. the pair's kernel at each width against cuBLAS's two GEMMs and the
#     product, and the down projection, interleaved on a heated card;
#  3. the torch backend against eager on every module, SwiGLU also with
#     fuse-siblings=false in the same rounds (the A/B of this change).
# Carry .capi (scripts/build-static-capi.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
mkdir -p "$out/check" "$out/variants" "$out/backend"
source bench/diag/capi-env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit,temperature.gpu --format=csv
for v in "pp128:paths=wgmma_tma schedules=pingpong tiles=128x128" \
         "pp144:paths=wgmma_tma tiles=128x144" \
         "pp160:paths=wgmma_tma tiles=128x160" \
         "pp192:paths=wgmma_tma tiles=128x192" \
         "coop128:paths=wgmma_tma schedules=cooperative tiles=128x128" \
         "coop256:paths=wgmma_tma tiles=128x256"; do
  python3 bench/diag/plan_check.py --seed 5 --epilogues swiglu --options "${v#*:}" \
    2>&1 | grep -v "^sol: " > "$out/check/${v%%:*}.txt"
  grep -E "^FAIL|plan_check" "$out/check/${v%%:*}.txt" | tail -4
done
NCU=0 OUT="$out/variants" bash bench/diag/gemm-variants.sh --shapes gate_up,down \
  --variants default,pp128,pp144,pp160,pp192,coop256 2>&1 | grep -E "TFLOP|FAIL|share 0|kernels"
OUT="$out/backend" bash bench/diag/backend-timing.sh \
  --variant no_siblings=fuse-siblings=false \
  | grep -E "^==|PASS|FAIL|time |passed|same kernels"
