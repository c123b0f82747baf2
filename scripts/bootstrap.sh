#!/usr/bin/env bash
# The README's first command: install dependencies, build, and run the main
# job (sol-opt on the seed example: the attention output projection plus
# residual, x[16,512,2560] @ W[2560,2560]^T + r in fp16).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec scripts/main-job.sh
