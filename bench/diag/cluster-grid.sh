#!/usr/bin/env bash
# Diagnoses the 2-CTA cluster wgmma_tma kernel (2026-11-30: 305 us against
# 215 us without the cluster): resident clusters, time against the
# persistent grid size (the kernel reads gridDim at run time, so only the
# manifest changes), and an ncu summary of both kernels.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
work="$(mktemp -d)"
out="${OUT:-$work/out}"; mkdir -p "$out"
nvcc -arch=sm_90a -o "$work/occ" "$root/bench/diag/cluster_occupancy.cu" && "$work/occ" | tee "$out/occupancy.txt"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
tar -C "$work" -xzf "$bundle/bench.tgz"
b="$work/bench"
for grid in 132 128 120 112 104 96 66; do
  python3 - "$b/oproj_residual_matmul_0.json" "$b/g$grid.json" "$grid" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["launch"]["grid"][0] = int(sys.argv[3])
m["ptx"] = m["ptx"]; m["cubin"] = m["cubin"]
json.dump(m, open(sys.argv[2], "w"))
PY
done
for grid in 132 128 120 112 104 96 66; do
  printf "grid %4s: " $grid; "$work/bin/sol-run" --seed=7 "$b/g$grid.json" | grep -E "^oproj" | awk '{print $7" us"}'
done | tee "$out/grid.txt"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for k in oproj_residual_matmul_0 oproj_residual_tma1_matmul_0; do
  timeout 200 "$ncu" --section SpeedOfLight --section LaunchStats --section Occupancy \
    --section MemoryWorkloadAnalysis --launch-count 1 "$work/bin/sol-run" --check-only --seed=7 "$b/$k.json" \
    > "$out/ncu_$k.txt" 2>&1
  grep -E "Duration|Throughput|Cluster|Waves|Registers|L2 Hit|Achieved Occupancy|Grid Size|Block Limit|DRAM|L1/TEX Hit|Mem Busy|Max Bandwidth" "$out/ncu_$k.txt" | head -40
done
