#!/usr/bin/env bash
# GPU smoke test of sol-run with hand-written CUDA kernels, independent of the
# compiler: run it on the GPU machine (needs nvcc and the driver) from the
# repository root. Expected: mm_res and gelu_bf16 PASS with timings;
# argcount.json and missing.json fail with clear messages.
#
#   examples/runner-smoke/smoke.sh [OUTPUT_DIR]
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/build-runner}"
cd "$root/examples/runner-smoke"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
"$NVCC" -arch=sm_90a -ptx kernels.cu -o kernels.ptx &&
  "$NVCC" -arch=sm_90a -cubin kernels.cu -o kernels.cubin || exit 1
"$root/scripts/build-runner.sh" "$out" || exit 1
"$out/sol-run" mm_res.json gelu.json --json="$out/smoke-rows.json"
echo "rc=$? (expected 0)"
"$out/sol-run" --prefer-ptx --check-only mm_res.json
echo "rc=$? (expected 0)"
"$out/sol-run" --prefer-ptx argcount.json missing.json
echo "rc=$? (expected 1: argument count mismatch, missing entry)"
