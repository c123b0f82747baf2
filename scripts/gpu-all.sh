#!/usr/bin/env bash
# The whole GPU side in ONE device call: the correctness/sanitizer/timing
# check (scripts/gpu-check.sh, bundle from scripts/gpu-bundle.sh), the
# torch.compile(backend="sol") check (`bench/diag.sh backend` over
# .capi/libsol_capi.so.xz: `scripts/build-static-capi.sh && mkdir -p .capi &&
# cp build-static/libsol_capi.so.xz .capi/`) and the benchmark against the
# peers (scripts/bench.sh, bundle from scripts/bench-bundle.sh). Carry
# gpu-bundle, .capi and bench-bundle. $OUT gets check.tgz (the check's logs
# and JSON), torch_backend_gpu.log and the benchmark's JSON, PNG and log.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${OUT:-$root/gpu-results}"
mkdir -p "$out/check"
SEED="${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}" OUT="$out/check" \
  "$root/scripts/gpu-check.sh" "$root/gpu-bundle" 2>&1 | grep -v "^memcheck\|^racecheck"
echo "sanitizer: $(grep -c 'rc=0' "$out/check/sanitizer.txt") runs clean of $(wc -l < "$out/check/sanitizer.txt")"
tar -C "$out" -czf "$out/check.tgz" check && rm -rf "$out/check"
echo "== torch.compile(backend=\"sol\")"
OUT="$out" bash "$root/bench/diag.sh" backend 2>&1 | grep -E "^==|PASS|FAIL|time |passed|graph"
echo "== benchmark"
OUT="$out" "$root/scripts/bench.sh" "$root/bench-bundle" 2>&1 | tail -16
