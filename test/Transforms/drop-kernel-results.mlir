// RUN: sol-opt %s --split-input-file --sol-drop-kernel-results -verify-diagnostics | FileCheck %s

// A bufferized kernel returns its out buffer: the result goes, the function
// stays public and writes the buffer it was given.
// CHECK-LABEL: func.func @returns_out_arg
//  CHECK-SAME:   (%{{.*}}: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>) {
//       CHECK:   memref.copy %{{.*}}, %[[OUT]]
//  CHECK-NEXT:   return{{$}}
func.func @returns_out_arg(%x: memref<8xf32>, %out: memref<8xf32>) -> memref<8xf32> {
  memref.copy %x, %out : memref<8xf32> to memref<8xf32>
  return %out : memref<8xf32>
}

// -----

// A result that is a fresh buffer would need a copy into the caller's.
func.func @returns_fresh_buffer(%x: memref<8xf32>) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  // expected-error @+1 {{kernel function @returns_fresh_buffer result #0 is not one of its arguments; the kernel would have to copy it into the caller's buffer}}
  return %a : memref<8xf32>
}

// -----

// Callers would lose the result: strip the host functions first.
// expected-error @+1 {{kernel function @called has callers; run sol-strip-host-funcs first}}
func.func @called(%out: memref<8xf32>) -> memref<8xf32> {
  return %out : memref<8xf32>
}
func.func @host(%out: memref<8xf32>) {
  %0 = call @called(%out) : (memref<8xf32>) -> memref<8xf32>
  return
}
