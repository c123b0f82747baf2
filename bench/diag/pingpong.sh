#!/usr/bin/env bash
# Ping-pong after the C7520 fix (2026-11-30): its matrix kernels (with and
# without clusters) checked, sanitizers on two, and the large workloads
# timed against the cooperative kernel. Compile first, here:
#   bench/diag/pingpong.sh --bundle     (writes gpu-bundle/diag.tgz)
# then, on the GPU, carry gpu-bundle and run it without arguments.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
if [ "${1:-}" = "--bundle" ]; then
  sol_opt="$root/build/bin/sol-opt"
  mkdir -p "$work/bench"
  only='^(mm|mm_residual|mm_bias_gelu_tanh|mm_rowscale_relu|mm_to_f32|mm_two_outputs)_(f16|bf16)_(7|64|4097)x(77x200|1000x1000|2560x2560)$'
  for v in "_pp:1" "_pp2:2"; do
    python3 "$root/scripts/gen-matrix.py" --profile=gpu --suffix="${v%%:*}" --only="$only" "$work/m${v%%:*}.mlir" >/dev/null
    "$sol_opt" "$work/m${v%%:*}.mlir" -o /dev/null \
      --sol-to-ptx="out-dir=$work/bench paths=wgmma_tma max-cluster=${v#*:} schedules=pingpong"
  done
  for w in oproj_prefill mlp_up_gelu oproj_decode16; do
    for dtype in fp16 bf16; do
      for v in "t_coop:paths=wgmma_tma schedules=cooperative" "t_pp:paths=wgmma_tma schedules=pingpong" \
               "t_pp2:paths=wgmma_tma schedules=pingpong max-cluster=2" "t_auto:"; do
        [ "$w" = oproj_decode16 ] && [ "${v%%:*}" != t_auto ] && continue
        sed -e "s/func.func @${w}_$dtype(/func.func @${v%%:*}_${w}_$dtype(/" \
          "$root/bench/workloads/${w}_$dtype.mlir" > "$work/x.mlir"
        "$sol_opt" "$work/x.mlir" --sol-to-ptx="out-dir=$work/bench ${v#*:}" -o /dev/null
      done
    done
  done
  tar -C "$work" -czf "$root/gpu-bundle/diag.tgz" bench
  echo "diag.tgz: $(ls "$work/bench" | grep -c json) kernels"
  exit 0
fi
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
run="$work/bin/sol-run"
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
ls "$work"/bench/*_pp*__*.json > "$work/list"
"$root/scripts/check-parallel.sh" "$run" "$work/list" "$work/check.log" "ping-pong matrix" \
  --seed="${SEED:-17}"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for k in mm_residual_bf16_64x1000x1000_pp mm_bias_gelu_tanh_f16_64x1000x1000_pp2; do
  for tool in memcheck racecheck; do
    timeout 120 "$san" --tool $tool --error-exitcode 3 "$run" --check-only "$work"/bench/${k}__*.json 2>&1 |
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|sol-run:" | tr '\n' ' '; echo " ($tool $k)"
  done
done
"$run" --seed=5 --json="${OUT:-$work}/pingpong-timing.json" "$work"/bench/t_*.json | grep -A40 "^kernel"
