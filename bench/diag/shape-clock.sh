#!/usr/bin/env bash
# Why the MLP-shaped matmul runs its K loop 10-14 % slower than the
# prefill-shaped one (bench/NOTES.md section 17): each plain matmul (ping-pong
# 128x128, no epilogue) looped ~12 s under nvidia-smi sampling (SM clock and
# power under the 700 W cap), then one launch of each under ncu with the
# clocks left alone (tensor pipe, L2 hit rate, DRAM traffic). Compile first:
#   bench/diag/shape-clock.sh --bundle   (writes gpu-bundle/diag.tgz)
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
if [ "${1:-}" = "--bundle" ]; then
  mkdir -p "$work/bench"
  for s in "prefill:8192x2560:2560x2560:8192x2560" "mlp:8192x2560:10240x2560:8192x10240"; do
    IFS=: read -r name a b o <<< "$s"
    cat > "$work/$name.mlir" <<MLIR
module attributes {sol.target = #sol.target<"h200">} {
  func.func @mm_$name(%x: tensor<${a}xf16>, %w: tensor<${b}xf16>) -> tensor<${o}xf16> {
    %h = sol.matmul %x, %w transpose_b : tensor<${a}xf16>, tensor<${b}xf16> -> tensor<${o}xf16>
    return %h : tensor<${o}xf16>
  }
}
MLIR
    "$root/build/bin/sol-opt" "$work/$name.mlir" -o /dev/null \
      --sol-to-ptx="out-dir=$work/bench paths=wgmma_tma schedules=pingpong"
  done
  tar -C "$work" -czf "$root/gpu-bundle/diag.tgz" bench && echo "diag.tgz: $(ls "$work"/bench/*.json | wc -l) kernels"
  exit 0
fi
out="${OUT:-$work/out}"; mkdir -p "$out"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
for k in mm_prefill mm_mlp; do
  iters=$([ $k = mm_mlp ] && echo 3000 || echo 12000)
  nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 50 > "$out/clocks_$k.csv" &
  smi=$!; sleep 1
  "$work/bin/sol-run" --iters=$iters --reps=3 "$work"/bench/${k}_matmul_0.json | grep -A1 "^kernel" | tail -1
  kill $smi; wait $smi 2>/dev/null
  awk -F', ' -v k=$k '$2>300 {n++; c+=$1; p+=$2} END {printf "%s under load: %d samples, SM clock %.0f MHz, power %.0f W\n", k, n, c/n, p/n}' "$out/clocks_$k.csv"
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in mm_prefill mm_mlp; do
  timeout 90 "$ncu" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --launch-count 1 "$work/bin/sol-run" --check-only --seed=7 "$work/bench/${k}_matmul_0.json" > "$out/ncu_$k.txt" 2>&1
  echo "== $k"; grep -E "SM Frequency|Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|L2 Hit Rate|L1/TEX Hit|Mem Busy|Max Bandwidth" "$out/ncu_$k.txt" | head -12
done
