#!/usr/bin/env bash
# The main job: sol's pipeline (canonicalize, fuse, cost model) on the seed
# example, o_proj + residual in fp16 on the H200, prefill and decode shapes,
# then on the other seed workloads. Prints each fusion decision, the fused
# kernels with their #sol.cost annotations, and the cost table.
set -euo pipefail
cd "$(dirname "$0")/.."
for example in examples/oproj_residual.mlir examples/oproj_residual_decode.mlir \
               examples/mlp_up_gelu.mlir examples/swiglu_residual.mlir; do
  echo "== $example"
  ./build/bin/sol-opt "$example" --mlir-print-op-on-diagnostic=false \
      --sol-annotate="report=table remarks=true"
done
