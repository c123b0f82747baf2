# Sourced (from the repository root) by the diag scripts that call the C API
# on the GPU machine: unpacks the carried self-contained libsol_capi.so
# (.capi/, from scripts/build-static-capi.sh) and points the package at it.
xz -dc .capi/libsol_capi.so.xz > /tmp/libsol_capi.so && chmod +x /tmp/libsol_capi.so
export SOL_CAPI_LIB=/tmp/libsol_capi.so PYTHONPATH=$PWD/python:$PWD/bench
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda} PYTHONUNBUFFERED=1
export SOL_CACHE_DIR=${SOL_CACHE_DIR:-/tmp/solcache}
