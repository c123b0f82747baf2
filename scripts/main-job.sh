#!/usr/bin/env bash
# The main job: sol's pipeline on the seed example (o_proj + residual, fp16,
# prefill and decode shapes, H200 target), printing the annotated IR and the
# cost table of every kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
for example in examples/oproj_residual.mlir examples/oproj_residual_decode.mlir; do
  echo "== $example"
  ./build/bin/sol-opt "$example" --sol-cost-model=report=table
done
