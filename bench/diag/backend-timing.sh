#!/usr/bin/env bash
# 2026-11-30, third session: torch.compile(backend="sol") against eager with
# interleaved, clock-stamped timing (bench/torch_backend_gpu.py), every sol
# variant (fast_math, each schedule, 2-CTA clusters) in the same rounds, and
# the kernels each side launches. Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
source bench/diag/capi-env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit,temperature.gpu --format=csv
python3 bench/torch_backend_gpu.py "$@" 2>&1 | tee "${OUT:-/tmp}/torch_backend_gpu.log" | grep -v "^sol: "
