#!/usr/bin/env bash
# 2026-11-30, fourth session's closing call: scripts/gpu-all.sh without the
# peer benchmark (its workloads did not change): the whole correctness
# matrix with the sibling kernels at every width, the sanitizers (three
# sibling kernels among them), the seed workloads' timing, and the torch
# backend against eager once more (a second, independent run of section 25's
# figures). Carry gpu-bundle and .capi.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-/tmp}"
mkdir -p "$out/check"
SEED="${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}" OUT="$out/check" \
  "$root/scripts/gpu-check.sh" "$root/gpu-bundle" 2>&1 | grep -v "^memcheck\|^racecheck"
echo "sanitizer: $(grep -c 'rc=0' "$out/check/sanitizer.txt") runs clean of $(wc -l < "$out/check/sanitizer.txt")"
grep -E "swiglu" "$out/check/sanitizer.txt"
tar -C "$out" -czf "$out/check.tgz" check && rm -rf "$out/check"
echo "== torch.compile(backend=\"sol\")"
OUT="$out" bash "$root/bench/diag/backend-timing.sh" 2>&1 | grep -E "^==|PASS|FAIL|time |passed|graph"
