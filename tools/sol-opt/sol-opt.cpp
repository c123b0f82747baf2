//===- sol-opt.cpp - the sol optimizer driver -----------------------------===//
//
// mlir-opt with the sol dialect and passes, next to every upstream dialect,
// extension and pass the lowering to PTX uses.
//
//===----------------------------------------------------------------------===//

#include "SolDialect/Passes.h"
#include "SolDialect/Pipelines.h"
#include "SolDialect/SolDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::sol::registerSolPasses();
  mlir::sol::registerSolPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::sol::SolDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates gpu.modules to LLVM IR in process.
  mlir::registerAllGPUToLLVMIRTranslations(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "sol optimizer driver\n", registry));
}
