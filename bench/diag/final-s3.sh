#!/usr/bin/env bash
# 2026-11-30, second session's last device call, after the model's last
# changes (L2 factor above 3/4 of L2, ping-pong winning ties, split-K's
# round trip): the default matrix (sol-tile's own choices) checked again,
# the seed workloads timed, and torch.compile(backend="sol") through the
# rebuilt C API. Carry gpu-bundle and .capi.
set -uo pipefail
source "$(dirname "$0")/runner-env.sh"
tar -C "$work" -xzf "$root/gpu-bundle/matrix.tgz"
tar -C "$work" -xzf "$root/gpu-bundle/bench.tgz"
ls "$work"/matrix/*.json | grep -v "_tma2__\|_pp__\|_pp2__" > "$work/list"
echo "default matrix kernels: $(wc -l < "$work/list"), schedules: $(cat $(cat "$work/list") | grep -o '"schedule": "[a-z]*"' | sort | uniq -c | tr '\n' ' ')"
"$root/scripts/check-parallel.sh" "$run" "$work/list" "$out/default-matrix.log" "default matrix" \
  --seed="${SEED:-23}"
ls "$work"/bench/*.json | grep -v "_coop\|_pp\|_cpasync" > "$work/bench-list"
xargs "$run" --seed=29 --json="$out/final-timing.json" < "$work/bench-list" | grep -A20 "^kernel"
OUT="$out" bash "$root/bench/diag/backend-timing.sh" 2>&1 | grep -E "PASS|FAIL|passed|rror"  # ran as .capi/run.sh, a local wrapper of the same check
