// RUN: not sol-opt %s --sol-cost-model 2>&1 | FileCheck %s --check-prefix=COST
// RUN: not sol-opt %s --sol-tile 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not sol-opt %s --sol-cost-model=report=bogus 2>&1 | FileCheck %s --check-prefix=REPORT

// sol-cost-model and sol-tile report errors about the whole module (no
// target, a bad option) at the first sol op when the module is the parser's
// implicit one, which has no line (it would say `file:0:0`). Not split: a
// split chunk's implicit module gets the chunk's line.
// COST: module-errors-implicit-module.mlir:[[# @LINE + 6]]:8: error: sol-cost-model
// COST-NOT: :0:0:
// TILE: module-errors-implicit-module.mlir:[[# @LINE + 4]]:8: error: sol-tile
// TILE-NOT: :0:0:
// REPORT: module-errors-implicit-module.mlir:[[# @LINE + 2]]:8: error: sol-cost-model: unknown report kind 'bogus'
func.func @implicit_module_errors(%x: tensor<1024xf16>) -> tensor<1024xf16> {
  %e = sol.exp %x : tensor<1024xf16>
  return %e : tensor<1024xf16>
}
