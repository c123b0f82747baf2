#!/usr/bin/env bash
# 2026-11-30, fourth session: cooperative 256-row tiles (bench/NOTES.md
# section 27). Correctness on odd shapes (plan_check.py, against float64),
# then each shape's plans against cuBLAS, interleaved on a heated card.
# Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
mkdir -p "$out/check" "$out/variants"
source bench/diag/capi-env.sh
for v in "tall128:paths=wgmma_tma tiles=256x128:plain,residual" \
         "tall160:paths=wgmma_tma tiles=256x160:plain,bias_gelu,swiglu" \
         "tall192:paths=wgmma_tma tiles=256x192:plain,f32,swiglu"; do
  IFS=: read -r name options epilogues <<< "$v"
  python3 bench/diag/plan_check.py --seed 7 --epilogues "$epilogues" --options "$options" \
    2>&1 | grep -v "^sol: " > "$out/check/$name.txt"
  grep -E "^FAIL|plan_check" "$out/check/$name.txt" | tail -4
done
NCU=0 OUT="$out/variants" bash bench/diag/gemm-variants.sh --shapes down,gate_up,oproj,mlp_gelu \
  --variants default,pp128,pp160,pp192,tall128,tall160,tall192 2>&1 | grep -E "TFLOP|FAIL|share 0|kernels"
