#!/usr/bin/env bash
# Builds sol-run with a bare C++17 compiler, no cmake and no LLVM, for the GPU
# machine: libcuda is dlopened at run time, so neither the CUDA toolkit nor
# the driver is needed to build, and JSON is nlohmann/json's single header,
# vendored in third_party/nlohmann (that machine has no network and no
# package manager). The sources are the CMake targets SolLaunch and SolRunner
# (runtime/CMakeLists.txt) and sol-run.cpp.
#
#   scripts/build-runner.sh [OUTPUT_DIR]     (default: build-runner)
#   CXX=clang++ scripts/build-runner.sh out
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-build-runner}"
mkdir -p "$out"
"${CXX:-g++}" -O2 -std=c++17 -Wall -I"$root" \
  "$root"/runtime/*.cpp "$root"/tools/sol-run/sol-run.cpp \
  -o "$out/sol-run" -ldl
echo "built $out/sol-run"
