//===- SolDialect.td - sol dialect definition --------------*- tablegen -*-===//
//
// The sol dialect: fused matmul-with-epilogue and elementwise kernels for
// transformer inference, annotated with their speed-of-light cost.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_DIALECT
#define SOL_DIALECT

include "mlir/IR/OpBase.td"

def Sol_Dialect : Dialect {
  let name = "sol";
  let cppNamespace = "::mlir::sol";
  let summary = "Fused GPU kernels for transformer inference, with their speed of light";
  let description = [{
    The sol dialect represents the hot path of transformer inference: a matmul
    with its elementwise epilogue (bias, residual, activation, scaling, cast)
    and chains of elementwise ops, on ranked tensors. Elementwise ops broadcast
    numpy-style without materialising the broadcast. `sol.kernel` groups ops
    into one GPU launch; it carries the cost (`#sol.cost`) and, later, the
    tile plan. `#sol.target` describes the device as data; a module pins it
    with the `sol.target` attribute.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute that pins the target for a whole file.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "sol.target";
    /// Name of the module attribute holding the module-level cost summary.
    static constexpr ::llvm::StringLiteral kCostSummaryAttrName =
        "sol.cost_summary";

    /// Name of the cost annotation on a lone sol op that becomes a kernel.
    static constexpr ::llvm::StringLiteral kCostAttrName = "sol.cost";
    /// The #sol.plan a kernel carries (on sol.kernel, then on its lowered
    /// function) once sol-tile has chosen it.
    static constexpr ::llvm::StringLiteral kPlanAttrName = "sol.plan";
    /// The number of TMA-map parameters a generated wgmma_tma kernel takes
    /// after its buffers (A's, then one per weight), for
    /// sol-tensor-map-params.
    static constexpr ::llvm::StringLiteral kTensorMapsAttrName =
        "sol.tensor_maps";
    /// The PTX ISA version (times ten) a generated gpu.module's code needs
    /// where that is later than its chip's default (getPtxVersion);
    /// sol-attach-nvvm-target targets the larger of the two, so every other
    /// module keeps its PTX.
    static constexpr ::llvm::StringLiteral kMinPtxVersionAttrName =
        "sol.min_ptx_version";

    /// The #sol.dim_range a module or function declares for its dynamic
    /// dim.
    static constexpr ::llvm::StringLiteral kDimRangeAttrName =
        "sol.dim_range";
    /// A dynamic kernel's plan table (#sol.plan_entry list) on its lowered
    /// function; each gpu.func generated from a row carries that row's
    /// `sol.plan` and this attribute with the one row.
    static constexpr ::llvm::StringLiteral kPlansAttrName = "sol.plans";

    /// Unit attribute marking a function that holds one lowered kernel
    /// (convert-sol-to-linalg). Such a function, and the gpu.func made of
    /// it, may also carry `sol.cost` and `sol.plan`.
    static constexpr ::llvm::StringLiteral kKernelFuncAttrName = "sol.kernel";

    void registerAttributes();
  }];
}

class Sol_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sol_Dialect, mnemonic, traits>;

#endif // SOL_DIALECT
