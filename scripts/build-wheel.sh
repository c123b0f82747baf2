#!/usr/bin/env bash
# Builds the sol wheel: the Python package (python/sol) with the
# self-contained C API library (scripts/build-static-capi.sh: MLIR and LLVM
# linked in) as sol/_lib/libsol_capi.so, for `pip install` on a machine
# without LLVM (the GPU box):
#
#   scripts/build-wheel.sh [DIST_DIR]        (default: dist, git-ignored)
#     -> DIST_DIR/sol-<version>-py3-none-manylinux_2_<glibc>_x86_64.whl
#
# The platform tag's glibc is the highest GLIBC_2.x symbol version the
# library imports (objdump -T), so pip refuses the wheel where that glibc is
# missing. The library must not need libLLVM/libMLIR (checked).
#
# Build: setuptools through `pip wheel` (the pyproject's backend) in a
# virtual environment of its own, build-wheel/tools (setuptools, and wheel for
# `wheel tags`, which sets the platform tag: the package is pure Python, so
# setuptools names it py3-none-any), from a staged copy of python/ in
# build-wheel/src, so the source tree's python/sol/_lib is never touched.
#
# The static library is relinked only when the normal build changed
# (build-static-capi.sh skips an up-to-date link); SOL_CAPI_STATIC=PATH uses a
# library built elsewhere instead. PYTHON picks the interpreter (python3).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dist="${1:-$root/dist}"
mkdir -p "$dist"
dist="$(cd "$dist" && pwd)"
PYTHON="${PYTHON:-python3}"
work="$root/build-wheel"
start=$(date +%s)

# 1. The self-contained library.
lib="${SOL_CAPI_STATIC:-}"
if [ -z "$lib" ]; then
  SOL_STATIC_XZ="${SOL_STATIC_XZ:-0}" "$root/scripts/build-static-capi.sh" "$root/build-static"
  lib="$root/build-static/libsol_capi.so"
fi
[ -f "$lib" ] || { echo "build-wheel: no library at $lib" >&2; exit 1; }
if readelf -d "$lib" | grep NEEDED | grep -q -e libLLVM -e libMLIR; then
  echo "build-wheel: $lib needs libLLVM/libMLIR (use scripts/build-static-capi.sh's)" >&2
  exit 1
fi
glibc="$(objdump -T "$lib" | grep -oE 'GLIBC_2\.[0-9]+' | sort -t. -k2 -n -u | tail -1)"
[ -n "$glibc" ] || { echo "build-wheel: no GLIBC_2.x symbol version in $lib" >&2; exit 1; }
plat="manylinux_2_${glibc#GLIBC_2.}_x86_64"
echo "== library: $lib ($(du -m "$lib" | cut -f1) MB), needs" \
  "$(readelf -d "$lib" | awk '/NEEDED/ {print $NF}' | tr -d '[]' | tr '\n' ' ')and $glibc -> $plat"

# 2. The build tools, in their own virtual environment (created once).
tools="$work/tools"
if ! "$tools/bin/python" -c "import setuptools, wheel.cli" 2>/dev/null; then
  rm -rf "$tools"
  "$PYTHON" -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    "setuptools>=61" "wheel>=0.40"
fi

# 3. Stage the package with the library and build the wheel.
rm -rf "$work/src" "$work/out"
mkdir -p "$work/src" "$work/out"
cp "$root/python/pyproject.toml" "$root/python/README.md" "$work/src/"
cp -r "$root/python/sol" "$work/src/sol"
rm -rf "$work/src/sol/_lib"
find "$work/src" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$work/src/sol/_lib"
cp "$lib" "$work/src/sol/_lib/libsol_capi.so"
"$tools/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
  --no-build-isolation -w "$work/out" "$work/src"
any="$(ls "$work"/out/sol-*-py3-none-any.whl)"
"$tools/bin/python" -m wheel tags --remove --platform-tag "$plat" "$any" > /dev/null
built="$(ls "$work"/out/sol-*-"$plat".whl)"

# 4. Check what went in, then replace any older sol wheel in DIST_DIR.
"$tools/bin/python" - "$built" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["sol/__init__.py", "sol/_capi.py", "sol/torch_backend.py",
        "sol/_lib/libsol_capi.so", "sol/fast_op.py", "sol/csrc/fused_op.cpp"]
missing = [n for n in need if n not in names]
ep = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
text = zipfile.ZipFile(sys.argv[1]).read(ep[0]).decode() if ep else ""
if missing or "[torch_dynamo_backends]" not in text:
    sys.exit(f"build-wheel: wheel lacks {missing or 'the torch_dynamo_backends entry point'}")
PY
rm -f "$dist"/sol-*.whl
mv "$built" "$dist/"
echo "== $dist/$(basename "$built") ($(du -m "$dist/$(basename "$built")" | cut -f1) MB) after $(( $(date +%s) - start )) s"
