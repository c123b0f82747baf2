set -uo pipefail
xz -dc .capi/libsol_capi.so.xz > /tmp/libsol_capi.so && chmod +x /tmp/libsol_capi.so
export SOL_CAPI_LIB=/tmp/libsol_capi.so PYTHONPATH=$PWD/python CUDA_HOME=/usr/local/cuda
python3 bench/diag/plan_check.py --options "paths=wgmma_tma schedules=pingpong tiles=128x192" \
  --shapes 255x392x264,255x392x320,255x392x256,255x392x384,128x392x264,255x384x264,255x200x264,256x392x264,255x392x136 2>&1 | grep -v "^sol: " | grep -v "bf16"
python3 bench/diag/plan_check.py --options "paths=wgmma_tma schedules=pingpong tiles=128x128" \
  --shapes 255x392x264,255x392x384,255x264x384 2>&1 | grep -v "^sol: " | grep -v bf16
