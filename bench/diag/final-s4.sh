#!/usr/bin/env bash
# 2026-11-30, third session's last device call: torch.compile(backend="sol")
# against eager after the store term moved the MLP to ping-pong (interleaved,
# heated, with variants and a kernel profile), then K scaling of the
# prefill-shaped plain matmul for ping-pong and cooperative tiles (a cost
# per tile shows as the intercept over K). Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
mkdir -p "$out/backend" "$out/kscale"
OUT="$out/backend" bash bench/diag/backend-timing.sh --variants --profile \
  | grep -E "^==|PASS|FAIL|time |profile|passed"
NCU=0 OUT="$out/kscale" bash bench/diag/gemm-variants.sh --shapes oproj_k1280,oproj,oproj_k5120,oproj_f32out \
  --variants pp128,coop128,coop256 2>&1 | grep -E "TFLOP|share" | head -30
