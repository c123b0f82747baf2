#!/usr/bin/env bash
# Builds a self-contained libsol_capi.so: the sol C API (include/sol-c/sol.h)
# with MLIR and LLVM linked in from the static component archives
# (/usr/lib/llvm-22/lib/libMLIR*.a, libLLVM*.a) instead of libMLIR.so and
# libLLVM.so, for a machine (e.g. a GPU box with Python and torch) that has
# no LLVM 22 installed.
#
# Usage: scripts/build-static-capi.sh [OUTDIR]     (default: build-static)
#   OUTDIR/libsol_capi.so        stripped, ready to load (ctypes / dlopen)
#   OUTDIR/libsol_capi.so.xz     the same, xz -9 compressed, for carrying
#                                (SOL_STATIC_XZ=0 skips it, as scripts/build-wheel.sh
#                                does: xz -9 took 227 s on 2 cores, the link 11 s)
#
# Run it on the machine with the Debian LLVM/MLIR 22 packages. It first builds
# the sol objects with the normal build (scripts/build.sh's build dir, or
# $SOL_BUILD_DIR): those are already compiled -fPIC -ffunction-sections
# -fdata-sections -O3, and the TableGen'd headers come from there too.
#
# Why a script and not the CMake targets: the exported MLIR/LLVM CMake targets
# reference `LLVM` (libLLVM.so), and Debian's MLIR_DIALECT_LIBS contain test
# libraries that link libMLIR.so, so a "static" CMake build silently becomes a
# hybrid (shared/recipes/mlir22/REPORT.md section 10). Here the link line is
# spelt out: every non-test libMLIR*.a and libLLVM*.a in one --start-group;
# the linker pulls only the members that are referenced, and --gc-sections
# drops the unreferenced functions.
#
# Symbols: a version script exports only sol_*; everything else (MLIR, LLVM,
# the statically linked libstdc++/libgcc) is local. That is safe here because
# all of MLIR lives in this one .so: the TypeID problem that forbids hiding in
# the libMLIR.so-linked build (lib/CAPI/CMakeLists.txt) comes from splitting
# MLIR across two shared objects. Hidden libstdc++ also means the library does
# not care which libstdc++ the host process (python, torch) has loaded.
#
# zlib/zstd: LLVM's Support library references both (compression of debug
# sections). Their static archives, /usr/lib/x86_64-linux-gnu/libz.a
# (zlib1g-dev) and libzstd.a (libzstd-dev), are linked in; scripts/install-deps.sh
# installs both. $ZLIB_A / $ZSTD_A point at other copies. Without them the
# script stops (a libz.so/libzstd.so dependency would not be self-contained).
#
# Rerunning is cheap: the link is skipped when OUTDIR/libsol_capi.so is newer
# than every input (the sol objects and archives, this script, the MLIR/LLVM
# archives), so scripts/build-wheel.sh can call it after every build.
#
# On the target machine: install the wheel (scripts/build-wheel.sh puts this
# library into dist/sol-*.whl), or copy libsol_capi.so to python/sol/_lib/ or
# point $SOL_CAPI_LIB at it, and make the CUDA toolkit visible:
# CUDA_HOME=/usr/local/cuda (libdevice for gpu-module-to-binary, ptxas for
# cubins; /usr/local/cuda is also the default). The library's needs (NEEDED
# entries and the highest GLIBC_2.x symbol version) are printed at the end.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/build-static}"
BUILD="${SOL_BUILD_DIR:-$ROOT/build}"
LLVM_LIB="${LLVM_LIB:-/usr/lib/llvm-22/lib}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# 1. The sol objects and archives, from the normal (libMLIR.so) build.
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD" --target sol_capi
capi_obj="$BUILD/lib/CAPI/CMakeFiles/sol_capi.dir/SolCAPI.cpp.o"
sol_archives=()
for name in MLIRSolPipelines MLIRSolTransforms MLIRSolToLinalg \
    MLIRSolKernelsToGPU MLIRSolScalarCodegen MLIRSolAnalysis MLIRSol SolLaunch; do
  archive="$(find "$BUILD" -name "lib$name.a" -print -quit)"
  [ -n "$archive" ] || { echo "missing lib$name.a under $BUILD" >&2; exit 1; }
  sol_archives+=("$archive")
done

# 2. Every static MLIR/LLVM archive except the test ones (never referenced
# by sol, and some are built against the dylibs' symbols).
mapfile -t llvm_archives < <(ls "$LLVM_LIB"/libMLIR*.a "$LLVM_LIB"/libLLVM*.a |
  grep -v -e 'Test' -e 'libMLIRShardTest')

system_libs=()
find_static() { # NAME ENVVAR_VALUE -> path of a static archive or nothing
  if [ -n "$2" ] && [ -f "$2" ]; then echo "$2"
  elif [ -f "/usr/lib/x86_64-linux-gnu/lib$1.a" ]; then
    echo "/usr/lib/x86_64-linux-gnu/lib$1.a"
  fi
}
for lib in z zstd; do
  var="$(echo "$lib" | tr a-z A-Z)"; [ "$lib" = z ] && var=ZLIB
  envval="$(eval echo "\${${var}_A:-}")"
  archive="$(find_static "$lib" "$envval")"
  if [ -z "$archive" ]; then
    echo "build-static-capi: no static lib$lib.a (Debian: $([ "$lib" = z ] && echo zlib1g-dev || echo libzstd-dev);" \
      "scripts/install-deps.sh installs it, or set ${var}_A)" >&2
    exit 1
  fi
  system_libs+=("$archive")
done

lib_out="$OUT/libsol_capi.so"
config="targets=${SOL_STATIC_TARGETS:-NVPTX} libs=${system_libs[*]}"
report() { # what the library depends on, its glibc floor and what it exports
  echo "--- NEEDED (readelf -d)"
  readelf -d "$lib_out" | awk '/NEEDED/ {print "  " $NF}' | tr -d '[]'
  if readelf -d "$lib_out" | grep NEEDED | grep -q -e libLLVM -e libMLIR; then
    echo "build-static-capi: $lib_out depends on libLLVM/libMLIR" >&2; exit 1
  fi
  echo "--- highest symbol versions (objdump -T)"
  objdump -T "$lib_out" | grep -oE 'GLIBC_2\.[0-9]+' | sort -t. -k2 -n -u | tail -1 | sed 's/^/  /'
  objdump -T "$lib_out" | grep -oE 'GLIBCXX_[0-9.]+|CXXABI_[0-9.]+' | sort -u | sed 's/^/  /' || true
  echo "--- exported symbols that are not sol_*"
  nm -D --defined-only "$lib_out" | grep -v ' sol_' || true
  ls -l "$lib_out" "$lib_out".xz 2>/dev/null || true
}
xz_wanted="${SOL_STATIC_XZ:-1}"
if [ -z "${SOL_STATIC_FORCE:-}" ] && [ -f "$lib_out" ] &&
   [ "$(cat "$OUT/config.txt" 2>/dev/null)" = "$config" ] &&
   [ -z "$(find "$capi_obj" "${sol_archives[@]}" "${llvm_archives[@]}" \
             "${system_libs[@]}" "${BASH_SOURCE[0]}" -newer "$lib_out" -print -quit)" ]; then
  echo "build-static-capi: $lib_out is up to date (SOL_STATIC_FORCE=1 relinks)"
  if [ "$xz_wanted" != 0 ] && [ ! -f "$lib_out.xz" ]; then xz -9 -T2 -k -f "$lib_out"; fi
  report
  exit 0
fi
rm -f "$OUT/config.txt"

# LLVM back ends: MLIR's target-utils (llvm-target-to-data-layout, pulled in
# by registerAllPasses) calls InitializeAllTargets and ROCDL's target
# initializes AMDGPU, which would link every back end LLVM was built with
# (~60 MB of the 175 MB). sol only emits NVPTX, so the other back ends'
# LLVMInitialize* entry points are replaced by weak no-op stubs, which keeps
# the linker from extracting them; those targets are then simply not
# registered (a lookup fails with "no such target" instead of crashing).
# SOL_STATIC_TARGETS="NVPTX AMDGPU ..." keeps more, "all" keeps every one.
keep_targets="${SOL_STATIC_TARGETS:-NVPTX}"
stubs="$OUT/target_stubs.c"
echo "/* generated by build-static-capi.sh: back ends left out */" > "$stubs"
if [ "$keep_targets" != all ]; then
  for codegen in "$LLVM_LIB"/libLLVM?*CodeGen.a; do
    target="$(basename "$codegen" CodeGen.a)"; target="${target#libLLVM}"
    case " $keep_targets " in *" $target "*) continue ;; esac
    nm --defined-only "$LLVM_LIB"/libLLVM"$target"*.a 2>/dev/null |
      awk '$2 == "T" {print $3}' |
      grep -E "^LLVMInitialize${target}(AsmParser|AsmPrinter|Disassembler|Target|TargetInfo|TargetMC|TargetMCA)\$" |
      sort -u | sed 's/.*/__attribute__((weak)) void &(void) {}/' >> "$stubs"
  done
fi
gcc -c -O2 -fPIC -o "$OUT/target_stubs.o" "$stubs"

linker=()
if command -v ld.lld > /dev/null; then linker=(-fuse-ld=lld); fi

cat > "$OUT/sol_capi.map" <<'EOF'
{ global: sol_*; local: *; };
EOF

# 3. Link, strip, compress.
unstripped="$OUT/libsol_capi.unstripped.so"
echo "linking $unstripped (${#llvm_archives[@]} MLIR/LLVM archives)"
g++ -shared -o "$unstripped" "${linker[@]}" \
  -Wl,--gc-sections -Wl,--exclude-libs,ALL -Wl,-z,defs -Wl,-O1 \
  -Wl,--version-script="$OUT/sol_capi.map" -Wl,-soname,libsol_capi.so \
  -static-libstdc++ -static-libgcc \
  "$capi_obj" "$OUT/target_stubs.o" \
  -Wl,--start-group "${sol_archives[@]}" "${llvm_archives[@]}" -Wl,--end-group \
  "${system_libs[@]}" -ldl -lpthread -lm
strip --strip-unneeded -o "$OUT/libsol_capi.so" "$unstripped"
rm -f "$OUT/libsol_capi.so.xz"
if [ "$xz_wanted" != 0 ]; then xz -9 -T2 -k -f "$OUT/libsol_capi.so"; fi

echo "$config" > "$OUT/config.txt"

# 4. What it depends on and what it exports.
report
