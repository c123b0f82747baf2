#!/usr/bin/env bash
# Split-K decode (branch decode-split-k): the small-M kernels of the matrix
# (split-K among them), compute-sanitizer on a split-K kernel, and the
# 16-token decode timed. Compile first, here:
#   python3 scripts/gen-matrix.py --profile=gpu --only='_(1|7|64)x' /tmp/s.mlir
#   sol-opt /tmp/s.mlir --sol-to-ptx=out-dir=/tmp/sk/bench -o /dev/null
#   (plus the decode16 example) ; tar -C /tmp/sk -czf gpu-bundle/diag.tgz bench
# then carry gpu-bundle.
set -uo pipefail
source "$(dirname "$0")/runner-env.sh"
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
ls "$work"/bench/*.json > "$work/list"
"$root/scripts/check-parallel.sh" "$run" "$work/list" "$work/check.log" "check" \
  --seed="${SEED:-13}"
echo "split-K kernels: $(grep -l '"split_k": [2-9]' "$work"/bench/*.json | wc -l)"
m=$(grep -l '"split_k": [2-9]' "$work"/bench/*.json | head -1)
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do
  timeout 60 "$san" --tool $tool --error-exitcode 3 "$run" --check-only "$m" 2>&1 |
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|sol-run:" | tr '\n' ' '; echo " ($tool)"
done
"$run" --seed=5 "$work"/bench/d16*.json | grep -A4 "^kernel"
