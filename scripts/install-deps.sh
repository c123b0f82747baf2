#!/usr/bin/env bash
# Installs what every script in README.md needs on a fresh Debian 12 machine,
# from Debian's packages. Idempotent (installs only what is missing).
#
#   build (scripts/build.sh)     LLVM/MLIR 22 (shared libraries, static
#                                archives, tools, lit, FileCheck), CMake,
#                                Ninja, ccache, g++, GoogleTest
#   scripts/build-static-capi.sh the static archives the self-contained C API
#                                links besides MLIR/LLVM's: libz.a
#                                (zlib1g-dev) and libzstd.a (libzstd-dev),
#                                which LLVM's Support references; lld (faster
#                                link; GNU ld works too), xz-utils (the .xz)
#   scripts/build-wheel.sh, CI   python3 with venv and pip (the wheel is built
#                                with setuptools/wheel in a virtual
#                                environment, and installed into a fresh one)
#
# Not from Debian: the CUDA toolkit's ptxas and libdevice ($CUDA_HOME, default
# /usr/local/cuda), which the main job and the tests that assemble cubins use,
# and PyTorch (scripts/install-python-deps.sh; the tests that need it are
# skipped without it).
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          cmake ninja-build ccache g++ libgtest-dev
          zlib1g-dev libzstd-dev lld xz-utils binutils
          python3 python3-venv python3-pip)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
