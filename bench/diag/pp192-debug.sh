#!/usr/bin/env bash
# 2026-11-30, third session: the 255x392x264 "failures" of the first 128x192
# plan_check (the check's own mean(), see NOTES section 23) rechecked with bad
# and NaN counts, around it in K, M and N, and the 128x128 kernel likewise.
# Run from the repository root; carry .capi.
set -uo pipefail
source bench/diag/capi-env.sh
python3 bench/diag/plan_check.py --options "paths=wgmma_tma schedules=pingpong tiles=128x192" \
  --shapes 255x392x264,255x392x320,255x392x256,255x392x384,128x392x264,255x384x264,255x200x264,256x392x264,255x392x136 2>&1 | grep -v "^sol: " | grep -v "bf16"
python3 bench/diag/plan_check.py --options "paths=wgmma_tma schedules=pingpong tiles=128x128" \
  --shapes 255x392x264,255x392x384,255x264x384 2>&1 | grep -v "^sol: " | grep -v bf16
