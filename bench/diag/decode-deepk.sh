#!/usr/bin/env bash
# Small-M mma.sync tiles for decode (2026-11-30: 256-deep, then K slices): checks every
# small-M kernel of gpu-bundle/diag.tgz, then times the 16-token decode.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
"$work/bin/sol-run" --check-only --seed="${SEED:-5}" "$work"/bench/*.json > "$work/check.log" 2>&1
tail -1 "$work/check.log"; grep -E "FAIL|error" "$work/check.log" | head
"$work/bin/sol-run" --seed=5 "$work"/bench/d16*.json | grep -A4 "^kernel"
