#!/usr/bin/env bash
# 2026-11-30, third session's closing device call: torch.compile(backend=
# "sol") against eager with the ping-pong widths (interleaved, heated, host
# time per call), then the benchmark with every implementation heated for
# 1 s before its timed replays. Carry .capi and bench-bundle.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
mkdir -p "$out/backend"
OUT="$out/backend" bash bench/diag/backend-timing.sh --variants \
  | grep -E "^==|PASS|FAIL|time |passed"
OUT="$out" scripts/bench.sh bench-bundle 2>&1 | tail -14
