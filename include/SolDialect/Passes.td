//===- Passes.td - sol passes ------------------------------*- tablegen -*-===//
//
// Pass ordering: sol-attach-target first (every later decision reads the
// target), then fusion, then the cost model, which annotates what fusion
// formed.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_PASSES
#define SOL_PASSES

include "mlir/Pass/PassBase.td"

def SolAttachTargetPass : Pass<"sol-attach-target", "::mlir::ModuleOp"> {
  let summary = "Pin the module's #sol.target from a preset or a JSON file";
  let description = [{
    Sets the `sol.target` module attribute, which every later sol pass reads.
    `preset` names a built-in device (a100-80gb, h100-sxm, h200, b200);
    `file` loads a calibrated description from JSON (see Target.h). Exactly
    one must be given. An existing `sol.target` is replaced.
  }];
  let options = [
    Option<"preset", "preset", "std::string", /*default=*/"\"\"",
           "Name of a built-in target preset">,
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "Path of a JSON target description">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

#endif // SOL_PASSES
