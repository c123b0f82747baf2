#!/usr/bin/env bash
# The main job: sol's whole pipeline (sol-to-ptx: canonicalize, fuse, form
# kernels, tile, cost model, linalg, gpu, NVVM, PTX, ptxas) on the seed
# example, o_proj + residual in fp16 on the H200, prefill and decode shapes,
# then on the other seed workloads. Prints each fusion and tiling decision,
# the cost table of the planned kernels (T_ideal, T_pred, SOL_pred), and the
# files written per kernel: its path, manifest, PTX (with its tensor-core
# instructions) and cubin, under build/kernels/.
set -euo pipefail
cd "$(dirname "$0")/.."
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
out=build/kernels
rm -rf "$out"
for example in examples/oproj_residual.mlir examples/oproj_residual_decode.mlir \
               examples/mlp_up_gelu.mlir examples/swiglu_mlp.mlir \
               examples/swiglu_residual.mlir; do
  echo "== $example"
  ./build/bin/sol-opt "$example" --mlir-print-op-on-diagnostic=false \
      --sol-to-ptx="out-dir=$out report=table remarks=true" -o /dev/null
done
echo "== kernels in $out"
for manifest in "$out"/*.json; do
  kernel=$(basename "$manifest" .json)
  ptx="$out/$kernel.ptx"
  path=$(grep -oE '"path": "[a-z_]+"' "$manifest" | cut -d'"' -f4)
  insts=$(grep -oE 'wgmma\.mma_async\.sync\.aligned\.[a-z0-9.]+|mma\.sync\.aligned\.[a-z0-9.]+|ldmatrix\.sync\.aligned\.[a-z0-9.]+|cp\.async\.cg\.shared\.global|cp\.async\.bulk\.tensor\.2d|mbarrier\.try_wait|ld\.global\.v4\.b32' "$ptx" \
            | sort | uniq -c | awk '{printf "%s x%s  ", $2, $1}' || true)
  printf '%-32s %-11s %7s B PTX, %6s B cubin  %s\n' "$kernel" "$path" \
    "$(wc -c < "$ptx")" "$(wc -c < "$out/$kernel.cubin")" "$insts"
done
