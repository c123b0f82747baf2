#!/usr/bin/env bash
# Tensor maps passed by value (2026-11-30): the TMA kernels of the matrix
# (with and without clusters), compute-sanitizer on one, the prefill timings
# and the torch backend, in one short device call. Carry gpu-bundle and .capi.
set -uo pipefail
source "$(dirname "$0")/runner-env.sh"
tar -C "$work" -xzf "$root/gpu-bundle/matrix.tgz"
tar -C "$work" -xzf "$root/gpu-bundle/bench.tgz"
grep -l '"path": "wgmma_tma"' "$work"/matrix/*.json > "$work/list"
echo "TMA kernels: $(wc -l < "$work/list")"
"$root/scripts/check-parallel.sh" "$run" "$work/list" "$out/tma-check.log" "TMA check" \
  --seed="${SEED:-9}"
m=$(ls "$work"/matrix/mm_residual_bf16_7x77x200_tma2__*.json | head -1)
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
timeout 60 "$san" --tool memcheck --error-exitcode 3 "$run" --check-only "$m" 2>&1 | grep -E "ERROR SUMMARY|sol-run:" | tr '\n' ' '; echo
"$run" --seed=3 "$work"/bench/oproj_residual_matmul_0.json "$work"/bench/oproj_residual_bf16_matmul_0.json \
  "$work"/bench/oproj_residual_cluster2_matmul_0.json | grep -A4 "^kernel"
OUT="$out" timeout 120 bash "$root/bench/diag/backend-timing.sh" 2>&1 | grep -E "PASS|FAIL|passed|rror"  # ran as .capi/run.sh, a local wrapper of the same check
