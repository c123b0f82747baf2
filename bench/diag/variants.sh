#!/usr/bin/env bash
# Times a bundle of kernel variants (gpu-bundle/diag.tgz) with sol-run.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
"$root/scripts/build-runner.sh" "$work/bin" >/dev/null || exit 1
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
"$work/bin/sol-run" --seed=11 "$work"/bench/*.json | tee "${OUT:-$work}/variants.txt" | grep -A40 "^kernel"
