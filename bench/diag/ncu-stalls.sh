#!/usr/bin/env bash
# Times the prefill variants and asks ncu where the wgmma_tma kernels' warps
# stall (one launch each): the 2026-11-30 v7 run measured TMA alone at
# 215 us with neither L2 (40 %) nor the SMs (58 %) saturated.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
work="$(mktemp -d)"
out="${OUT:-$work/out}"; mkdir -p "$out"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
tar -C "$work" -xzf "$bundle/bench.tgz"
b="$work/bench"
"$work/bin/sol-run" --seed=7 $b/oproj_residual_matmul_0.json $b/oproj_residual_tma1_matmul_0.json \
  $b/oproj_residual_cpasync_matmul_0.json | tee "$out/time.txt" | grep -A5 "^kernel"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in oproj_residual_matmul_0 oproj_residual_tma1_matmul_0; do
  timeout 240 "$ncu" --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --launch-count 1 \
    "$work/bin/sol-run" --check-only --seed=7 "$b/$k.json" > "$out/ncu_$k.txt" 2>&1
  echo "== $k"; grep -E "Duration|Throughput|Stall|Warp Cycles|Issued|Eligible|No Eligible|Active Warps|Hit Rate" "$out/ncu_$k.txt" | head -40
done
