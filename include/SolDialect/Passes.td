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

def SolCostModelPass : Pass<"sol-cost-model", "::mlir::ModuleOp"> {
  let summary = "Annotate every kernel with its speed-of-light cost (#sol.cost)";
  let description = [{
    Under the module's #sol.target, writes `cost = #sol.cost<...>` on every
    sol.kernel and `sol.cost` on every sol compute op outside a kernel (it
    will become a kernel of its own): FLOPs (tensor-core and elementwise
    apart), minimum bytes, intensity, balance, bound, T_ideal, T_pred,
    SOL_pred and the dominant term of T_pred (see CostModel.h). The module
    gets `sol.cost_summary`: totals and the bytes fusion saved against the
    same graph unfused. A kernel the model cannot bound (dynamic shapes, no
    peak for its dtype on the target) is annotated `bound = unknown` with the
    reason, and a warning names it.

    `report=table` prints a table a person reads at a glance, `report=json`
    the same for tools, to `report-file` (default: stdout).
  }];
  let options = [
    Option<"report", "report", "std::string", /*default=*/"\"none\"",
           "Print a report: none, table or json">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"-\"",
           "Where the report goes ('-': stdout)">,
  ];
  let dependentDialects = ["::mlir::sol::SolDialect"];
}

#endif // SOL_PASSES
