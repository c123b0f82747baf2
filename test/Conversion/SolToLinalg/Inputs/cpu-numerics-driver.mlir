// Driver for cpu-numerics.mlir: fills each kernel input with the exact f16
// values v[i] = ((a*i + b) mod p - q) / 16 over its flat row-major index i,
// calls the kernels through their bare-pointer C ABI (kernels.so), and prints
// each output with printMemrefF16, prefixed by the kernel's name. The
// (a, b, p, q) of every buffer are repeated in cpu_numerics_ref.py.
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printString(!llvm.ptr)
func.func private @oproj_matmul_0(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func private @mlp_matmul_0(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)

llvm.mlir.global internal constant @oproj_name("oproj_matmul_0\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @mlp_name("mlp_matmul_0\0A\00") {addr_space = 0 : i32}

func.func @buffer(%n: index, %a: index, %b: index, %p: index, %q: index) -> memref<?xf16> {
  %m = memref.alloc(%n) : memref<?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sixteenth = arith.constant 0.0625 : f16
  scf.for %i = %c0 to %n step %c1 {
    %ai = arith.muli %a, %i : index
    %s = arith.addi %ai, %b : index
    %md = arith.remui %s, %p : index
    %v = arith.subi %md, %q : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f16
    %x = arith.mulf %vf, %sixteenth : f16
    memref.store %x, %m[%i] : memref<?xf16>
  }
  return %m : memref<?xf16>
}

func.func @ptr(%m: memref<?xf16>) -> !llvm.ptr {
  %i = memref.extract_aligned_pointer_as_index %m : memref<?xf16> -> index
  %j = arith.index_cast %i : index to i64
  %p = llvm.inttoptr %j : i64 to !llvm.ptr
  return %p : !llvm.ptr
}

func.func @print(%name: !llvm.ptr, %m: memref<?xf16>) {
  call @printString(%name) : (!llvm.ptr) -> ()
  %u = memref.cast %m : memref<?xf16> to memref<*xf16>
  call @printMemrefF16(%u) : (memref<*xf16>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c17 = arith.constant 17 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  %c120 = arith.constant 120 : index

  // oproj: x[3,5,8], W[8,8], r[3,5,8] -> out[3,5,8]
  %x = call @buffer(%c120, %c7, %c3, %c17, %c8) : (index, index, index, index, index) -> memref<?xf16>
  %w = call @buffer(%c64, %c5, %c1, %c13, %c7) : (index, index, index, index, index) -> memref<?xf16>
  %r = call @buffer(%c120, %c4, %c9, %c9, %c4) : (index, index, index, index, index) -> memref<?xf16>
  %o = call @buffer(%c120, %c0, %c0, %c1, %c0) : (index, index, index, index, index) -> memref<?xf16>
  %px = call @ptr(%x) : (memref<?xf16>) -> !llvm.ptr
  %pw = call @ptr(%w) : (memref<?xf16>) -> !llvm.ptr
  %pr = call @ptr(%r) : (memref<?xf16>) -> !llvm.ptr
  %po = call @ptr(%o) : (memref<?xf16>) -> !llvm.ptr
  call @oproj_matmul_0(%px, %pw, %pr, %po) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %on = llvm.mlir.addressof @oproj_name : !llvm.ptr
  call @print(%on, %o) : (!llvm.ptr, memref<?xf16>) -> ()

  // mlp: x[5,8], W[8,8], bias[8], scale[5,1] -> out[5,8]
  %x2 = call @buffer(%c40, %c11, %c5, %c13, %c6) : (index, index, index, index, index) -> memref<?xf16>
  %w2 = call @buffer(%c64, %c3, %c2, %c11, %c5) : (index, index, index, index, index) -> memref<?xf16>
  %b2 = call @buffer(%c8, %c5, %c3, %c9, %c4) : (index, index, index, index, index) -> memref<?xf16>
  %s2 = call @buffer(%c5, %c3, %c8, %c7, %c0) : (index, index, index, index, index) -> memref<?xf16>
  %o2 = call @buffer(%c40, %c0, %c0, %c1, %c0) : (index, index, index, index, index) -> memref<?xf16>
  %px2 = call @ptr(%x2) : (memref<?xf16>) -> !llvm.ptr
  %pw2 = call @ptr(%w2) : (memref<?xf16>) -> !llvm.ptr
  %pb2 = call @ptr(%b2) : (memref<?xf16>) -> !llvm.ptr
  %ps2 = call @ptr(%s2) : (memref<?xf16>) -> !llvm.ptr
  %po2 = call @ptr(%o2) : (memref<?xf16>) -> !llvm.ptr
  call @mlp_matmul_0(%px2, %pw2, %pb2, %ps2, %po2) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %mn = llvm.mlir.addressof @mlp_name : !llvm.ptr
  call @print(%mn, %o2) : (!llvm.ptr, memref<?xf16>) -> ()
  return
}
