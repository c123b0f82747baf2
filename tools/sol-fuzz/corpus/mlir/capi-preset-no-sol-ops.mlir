// sol-fuzz corpus: no sol ops, compiled through the C API with a preset target (SIGSEGV in getTargetPreset).
// sol-fuzz capi: target=h200 options=-
func.func @main(%x: memref<8xf32>) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  return %a : memref<8xf32>
}
