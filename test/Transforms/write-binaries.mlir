// RUN: rm -rf %t && mkdir -p %t/fake/bin
// RUN: sol-opt %s --split-input-file --sol-write-binaries="dir=%t/out cubin=false" -verify-diagnostics
// RUN: FileCheck %s --check-prefix=PTX < %t/out/asm_kernel.ptx
// A ptxas that fails: its message reaches the user.
// RUN: printf '#!/bin/sh\necho "ptxas fatal : planted failure" >&2\nexit 1\n' > %t/fake/bin/ptxas && chmod +x %t/fake/bin/ptxas
// RUN: not sol-opt %s --split-input-file --sol-write-binaries="dir=%t/out2 cuda-path=%t/fake" 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not sol-opt %s --split-input-file --sol-write-binaries 2>&1 | FileCheck %s --check-prefix=NODIR

// PTX: // the PTX text, written as it is
// PTXAS: error: sol-write-binaries: ptxas failed on '{{.*}}asm_kernel.ptx': ptxas fatal : planted failure
// NODIR: error: sol-write-binaries: no 'dir' given

// A PTX object is written to <dir>/<binary>.ptx.
module attributes {gpu.container_module} {
  gpu.binary @asm_kernel [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "// the PTX text, written as it is\n">]
}

// -----

// Only PTX is written (and assembled): a cubin made elsewhere is refused.
module attributes {gpu.container_module} {
  // expected-error @+1 {{sol-write-binaries: expected PTX objects (gpu-module-to-binary format=isa)}}
  gpu.binary @bin_kernel [#gpu.object<#nvvm.target<chip = "sm_90a">, bin = "\00\01">]
}

// -----

// A binary's name becomes a file name: one that could leave `dir` is
// refused before anything is written.
module attributes {gpu.container_module} {
  // expected-error @+1 {{sol-write-binaries: binary @../escape cannot name a file: holds a path separator}}
  gpu.binary @"../escape" [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "// x\n">]
}
