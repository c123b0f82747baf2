#!/usr/bin/env bash
# 2026-11-30, third session: the torch backend with its hot path, on the
# decode shapes too, called and as CUDA-graph replays, against eager the
# same ways. Carry .capi.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp}" bash bench/diag/backend-timing.sh | grep -E "^==|PASS|FAIL|time |passed|graph"
