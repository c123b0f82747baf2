#!/usr/bin/env bash
# The main job: run sol's pipeline on the seed example and print the result.
set -euo pipefail
cd "$(dirname "$0")/.."
./build/bin/sol-opt examples/oproj_residual.mlir
