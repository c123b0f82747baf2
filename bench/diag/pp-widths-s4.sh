#!/usr/bin/env bash
# 2026-11-30, third session: ping-pong tiles 128 x {128,144,160,192}: the
# width that fills the last wave (down 2048x2560: 256 tiles of 128x160 on
# 132 SMs, against 320 of 128x128; gate 2048x6912: 768 of 128x144 against
# 864). Correctness on odd shapes for the new widths, then timing against
# cuBLAS (interleaved, heated), then the torch backend. Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
mkdir -p "$out/check" "$out/variants" "$out/backend"
source bench/diag/capi-env.sh
for n in 144 160; do
  python3 bench/diag/plan_check.py --seed $n --options "paths=wgmma_tma schedules=pingpong tiles=128x$n" \
    2>&1 | grep -v "^sol: " > "$out/check/plan_check_$n.txt"
  grep -E "^FAIL|plan_check" "$out/check/plan_check_$n.txt" | tail -6
done
NCU=0 OUT="$out/variants" bash bench/diag/gemm-variants.sh --shapes gate,down,oproj,mlp_gelu \
  --variants pp128,pp144,pp160,pp192 2>&1 | grep -E "TFLOP|FAIL|share 0"
OUT="$out/backend" bash bench/diag/backend-timing.sh --variants \
  | grep -E "^==|PASS|FAIL|time |passed"
