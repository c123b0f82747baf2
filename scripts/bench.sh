#!/usr/bin/env bash
# The benchmark, in ONE device call on the GPU machine (Python 3.12, torch,
# triton, numpy, matplotlib; no MLIR: scripts/bench-bundle.sh compiled sol's
# kernels here first):
#
#   scripts/bench.sh [BUNDLE_DIR] [run_bench.py options...]
#
# e.g. scripts/bench.sh bench-bundle
#      scripts/bench.sh bench-bundle --impls sol,eager,cublas_addmm,inductor   (no max-autotune)
#      scripts/bench.sh bench-bundle --quick --workloads oproj_decode1           (smoke)
#
# sol and the peers (eager, cuBLAS addmm, torch.compile, max-autotune) on every
# workload in fp16 and bf16, each checked against float64 before it is timed;
# writes <date>-<card>.json, its roofline .png and bench-run.log to $OUT (the
# device tool's return folder) or bench/results, and prints the table last.
# run_bench.py keeps itself under --budget-s (450 s by default) by skipping
# the torch.compile peers, max-autotune first, when time runs short.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$root/bench-bundle}"
[ $# -gt 0 ] && shift
out="${OUT:-$root/bench/results}"
mkdir -p "$out"
export PYTHONUNBUFFERED=1
# Inductor's caches on local disk, fresh for this machine.
export TORCHINDUCTOR_CACHE_DIR="${TORCHINDUCTOR_CACHE_DIR:-$(mktemp -d)/inductor}"
[ -f "$bundle/bench-kernels.tgz" ] || [ -f "$bundle/kernels/bundle.json" ] ||
  echo "bench.sh: no sol bundle at $bundle (scripts/bench-bundle.sh); sol rows will say so" >&2
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv,noheader 2>/dev/null || true
python3 "$root/bench/run_bench.py" --bundle "$bundle" --out "$out" "$@" 2>&1 | tee "$out/bench-run.log"
exit "${PIPESTATUS[0]}"
