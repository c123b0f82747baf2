#!/usr/bin/env bash
# 2026-11-30, session 3's first device call: both branches awaiting a GPU
# (merged on `candidate`) and the SM clock under a long tensor-core load.
#   1. bench/diag/tma-byvalue.sh  (TMA kernels with by-value maps, sanitizer,
#      prefill timings, torch backend through the C API)
#   2. bench/diag/split-k.sh      (small-M matrix incl. split-K, sanitizers,
#      16-token decode timed)
#   3. the MLP kernel looped ~15 s under nvidia-smi sampling every 50 ms:
#      SM clock, power and throttle reasons while the tensor cores are busy.
# Carry gpu-bundle (matrix.tgz, bench.tgz, diag.tgz) and .capi.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-/tmp/out}"; mkdir -p "$out"
echo "== 1. tma-byvalue"; OUT="$out" bash "$root/bench/diag/tma-byvalue.sh"
echo "== 2. split-k"; bash "$root/bench/diag/split-k.sh"
echo "== 3. clock under load"
work="$(mktemp -d)"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
tar -C "$work" -xzf "$root/gpu-bundle/bench.tgz"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active \
  --format=csv,noheader,nounits -lms 50 > "$out/clocks.csv" &
smi=$!
sleep 1
"$work/bin/sol-run" --iters=4000 --reps=5 "$work"/bench/mlp_up_gelu_matmul_0.json | grep -A4 "^kernel"
kill $smi; wait $smi 2>/dev/null
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.applications.graphics,power.default_limit --format=csv
awk -F', ' '$3>300 {n++; c+=$1; p+=$3; if(min==""||$1<min)min=$1; if($1>max)max=$1; r[$6]++}
  END {printf "under load (%d samples > 300 W): SM clock mean %.0f MHz (min %d, max %d), power mean %.0f W\n", n, c/n, min, max, p/n;
       for (k in r) print "  event reasons " k ": " r[k] " samples"}' "$out/clocks.csv"
