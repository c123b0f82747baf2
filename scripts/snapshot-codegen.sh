#!/usr/bin/env bash
# Everything sol-opt decides and emits for the correctness matrices, the
# examples and the bench workloads, as plain files (plans in the manifests,
# PTX, the tiled IR), for checking that a refactoring changes no output:
#
#   scripts/snapshot-codegen.sh DIR      then, after the change,
#   scripts/snapshot-codegen.sh DIR2 && diff -r DIR DIR2
#
# DIR/gpu, DIR/dynamic, DIR/bench: what scripts/gpu-bundle.sh compiles (the
# GPU matrix, its dynamic-M variant, the timed workloads), without cubins;
# DIR/cpu: the CPU profile's matrix; DIR/tiled: each bench workload after
# sol-tile (its #sol.plan as the IR prints it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
sol_opt="${SOL_OPT:-$root/build/bin/sol-opt}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out/cpu" "$out/tiled"
# Without cubins: no ptxas (most of the bundle's time); the manifests are
# the same either way.
CUBIN=false SOL_OPT="$sol_opt" "$root/scripts/gpu-bundle.sh" "$work/bundle" > /dev/null
tar -C "$out" -xzf "$work/bundle/matrix.tgz"
tar -C "$out" -xzf "$work/bundle/bench.tgz"
mv "$out/matrix" "$out/gpu"
python3 "$root/scripts/gen-matrix.py" --profile=cpu "$work/cpu.mlir"
"$sol_opt" "$work/cpu.mlir" --sol-to-ptx="out-dir=$out/cpu cubin=false" -o /dev/null
for f in "$root"/bench/workloads/*.mlir "$root"/examples/*.mlir; do
  "$sol_opt" "$f" --canonicalize --sol-fuse --sol-cost-model \
    --sol-form-kernels --sol-tile --sol-cost-model \
    -o "$out/tiled/$(basename "$f")"
done
echo "$out: $(find "$out" -name '*.ptx' | wc -l) PTX, $(find "$out" -name '*.json' | wc -l) manifests"
