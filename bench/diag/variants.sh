#!/usr/bin/env bash
# Times a bundle of kernel variants (gpu-bundle/diag.tgz) with sol-run.
set -uo pipefail
source "$(dirname "$0")/runner-env.sh"
tar -C "$work" -xzf "$root/gpu-bundle/diag.tgz"
"$run" --seed=11 "$work"/bench/*.json | tee "${OUT:-$work}/variants.txt" | grep -A40 "^kernel"
