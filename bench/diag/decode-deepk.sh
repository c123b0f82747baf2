#!/usr/bin/env bash
# Small-M mma.sync tiles for decode (2026-11-30: 256-deep, then K slices): checks every
# small-M kernel of gpu-bundle/diag.tgz, then times the 16-token decode.
set -uo pipefail
source "$(dirname "$0")/runner-env.sh"
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
"$run" --check-only --seed="${SEED:-5}" "$work"/bench/*.json > "$work/check.log" 2>&1
tail -1 "$work/check.log"; grep -E "FAIL|error" "$work/check.log" | head
"$run" --seed=5 "$work"/bench/d16*.json | grep -A4 "^kernel"
