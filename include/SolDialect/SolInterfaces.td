//===- SolInterfaces.td - sol op interfaces ----------------*- tablegen -*-===//
//
// Interfaces through which analyses (the cost model, fusion) see sol ops
// without knowing each op by name.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_INTERFACES
#define SOL_INTERFACES

include "mlir/IR/OpBase.td"

def Sol_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::mlir::sol";
  let description = [{
    An op that computes each result element from the corresponding (broadcast)
    operand elements. Fusion may merge any chain of these into one kernel; the
    cost model counts `getFlopsPerElement()` floating-point operations per
    result element (the convention each op documents).
  }];
  let methods = [
    InterfaceMethod<
      "Floating-point operations per result element (cost-model convention).",
      "int64_t", "getFlopsPerElement">,
  ];
}

#endif // SOL_INTERFACES
