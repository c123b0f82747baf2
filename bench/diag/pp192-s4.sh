#!/usr/bin/env bash
# 2026-11-30, third session: ping-pong consumers on 128x192 tiles (each
# consumer two m64n192 accumulators, 5 stages): a sixth less L2 traffic per
# MAC than 128x128. First correctness on odd shapes against float64
# (bench/diag/plan_check.py), then timing against 128x128 and cuBLAS
# (interleaved, heated), then the torch backend with the model's new
# choices. Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
mkdir -p "$out/check" "$out/variants" "$out/backend"
source bench/diag/capi-env.sh
python3 bench/diag/plan_check.py --options "paths=wgmma_tma schedules=pingpong tiles=128x192" \
  2>&1 | grep -v "^sol: " > "$out/check/plan_check.txt"
grep -E "FAIL|plan_check" "$out/check/plan_check.txt" | tail -12
NCU=0 OUT="$out/variants" bash bench/diag/gemm-variants.sh --shapes mlp_gelu,mlp_plain,oproj,gate,down \
  --variants pp128,pp192,coop256 2>&1 | grep -E "TFLOP|FAIL|share 0"
OUT="$out/backend" bash bench/diag/backend-timing.sh --variants \
  | grep -E "^==|PASS|FAIL|time |passed"
