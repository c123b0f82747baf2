#!/usr/bin/env bash
# Compiles everything the GPU check needs, here (the GPU machine has no
# MLIR), into one folder the device tool carries:
#
#   scripts/gpu-bundle.sh [BUNDLE_DIR]        (default: gpu-bundle, git-ignored)
#
#   BUNDLE_DIR/matrix.tgz   the correctness matrix (gen-matrix.py --profile=gpu):
#                           per kernel a manifest, its PTX and its cubin
#   BUNDLE_DIR/bench.tgz    the seed workloads (examples/*.mlir, and bf16 and
#                           16-token variants of o_proj + residual), for timing
#
# Then, in one device call:  scripts/gpu-check.sh BUNDLE_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$root/gpu-bundle}"
sol_opt="${SOL_OPT:-$root/build/bin/sol-opt}"
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$bundle" "$work/matrix" "$work/bench"

python3 "$root/scripts/gen-matrix.py" --profile=gpu "$work/matrix.mlir"
"$sol_opt" "$work/matrix.mlir" --sol-to-ptx=out-dir="$work/matrix" -o /dev/null

# Timed workloads: the examples as written (fp16), plus bf16 and 16-token
# decode variants of the seed o_proj + residual.
mkdir -p "$work/bench-src"
cp "$root"/examples/*.mlir "$work/bench-src/"
for f in oproj_residual oproj_residual_decode; do
  sed -e 's/xf16>/xbf16>/g' -e "s/func.func @$f(/func.func @${f}_bf16(/" \
    "$root/examples/$f.mlir" > "$work/bench-src/${f}_bf16.mlir"
done
sed -e 's/1x1x2560xf16/16x1x2560xf16/g' \
  -e 's/func.func @oproj_residual_decode(/func.func @oproj_residual_decode16(/' \
  "$root/examples/oproj_residual_decode.mlir" > "$work/bench-src/oproj_residual_decode16.mlir"
for f in "$work"/bench-src/*.mlir; do
  "$sol_opt" "$f" --sol-to-ptx=out-dir="$work/bench" -o /dev/null
done

tar -C "$work" -czf "$bundle/matrix.tgz" matrix
tar -C "$work" -czf "$bundle/bench.tgz" bench
echo "$bundle: $(ls "$work/matrix" | grep -c '\.json$') matrix kernels," \
  "$(ls "$work/bench" | grep -c '\.json$') bench kernels," \
  "$(du -sh "$bundle" | cut -f1)"
