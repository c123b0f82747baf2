//===- Manifest.h - the compiler's description of one kernel ----*- C++ -*-===//
//
// A manifest is the contract between sol's compiler and this runtime: which
// binary to load, how to launch it, the arguments' types and shapes, and a
// small program of the math the kernel computes, from which the runtime
// builds an independent float64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_MANIFEST_H
#define SOL_RUNTIME_MANIFEST_H

#include "runtime/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sol {
namespace runtime {

using Shape = std::vector<int64_t>;

/// The most elements a manifest's shape may hold (2^48, far beyond any
/// memory): element and byte counts of a parsed manifest are then exact in
/// int64, size_t and double, and every product of them below fits.
constexpr int kMaxElementsLog2 = 48;
constexpr int64_t kMaxElements = int64_t(1) << kMaxElementsLog2;
/// The largest integer a manifest field may hold unless the field says less
/// (2^53: every integer up to it is exact in a JSON number).
constexpr int64_t kMaxManifestInteger = int64_t(1) << 53;

/// The product of `shape` (not checked: for shapes parseManifest accepted).
int64_t getNumElements(const Shape &shape);
/// The product of `shape`, or -1 when a dim is negative or the product
/// exceeds kMaxElements.
int64_t getCheckedNumElements(const Shape &shape);
/// "[16, 512, 2560]".
std::string formatShape(const Shape &shape);

struct ArgSpec {
  std::string name;
  bool isOutput = false;
  DType dtype = DType::F32;
  Shape shape;

  int64_t getNumElements() const { return runtime::getNumElements(shape); }
  size_t getNumBytes() const {
    return static_cast<size_t>(getNumElements()) * getDTypeSize(dtype);
  }
};

enum class OpKind {
  Arg,
  Constant,
  Matmul,
  // Binary, numpy broadcasting.
  Add,
  Sub,
  Mul,
  Div,
  Max,
  Min,
  // Unary.
  Neg,
  Abs,
  Exp,
  Tanh,
  Erf,
  Sigmoid,
  Relu,
  Silu,
  Gelu,
  Cast,
};

bool isBinaryOp(OpKind kind);
bool isUnaryOp(OpKind kind); // includes gelu and cast
const char *getOpName(OpKind kind);

/// The side of a block-wise fp8 scale's blocks (docs/fp8.md, "Block-wise
/// scales"): the compiler's MatmulOp::kScaleBlock, which the manifest's
/// scale shapes imply.
constexpr int64_t kFp8ScaleBlock = 128;

struct ProgramOp {
  OpKind kind = OpKind::Constant;
  std::vector<int> operands;
  int argIndex = -1;        // arg
  double constantValue = 0; // constant
  bool transposeB = false;  // matmul: b is [N, K]
  /// matmul: the value ids of its fp8 dequantisation scales (docs/fp8.md,
  /// "Scales"), -1 where absent (a scale of 1): scale_a per tensor or per
  /// row of A, scale_b per tensor or per column, scale_out the fp8
  /// result's.
  /// Block-wise scales (docs/fp8.md, "Block-wise scales"), told by their
  /// shapes (`isBlockScale`): scale_a one value per row and K group
  /// ([..., M, ceil(K/kFp8ScaleBlock)]), scale_b one per block of B
  /// ([ceil(N/kFp8ScaleBlock), ceil(K/kFp8ScaleBlock)]).
  int scaleA = -1, scaleB = -1, scaleOut = -1;
  bool geluTanh = false;    // gelu: tanh approximation instead of erf
  DType dtype = DType::F32;
  Shape shape;
};

/// Whether `scale` (a matmul's scale_a or scale_b value, already checked
/// against the shapes the manifest reader takes) is block-wise: it scales
/// each K block's partial sum. A scale_a of one K group is per row.
inline bool isBlockScale(const ProgramOp &scale, bool isScaleB) {
  return isScaleB ? scale.shape.size() == 2
                  : scale.shape.size() >= 2 && scale.shape.back() != 1;
}

struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned dynamicSharedBytes = 0;
  /// Thread-block cluster dims ("launch": {"cluster": [x, y, z]}); all 1
  /// (the default) is a plain launch.
  unsigned cluster[3] = {1, 1, 1};

  bool hasCluster() const { return cluster[0] * cluster[1] * cluster[2] > 1; }
};

/// The most blocks a cluster may have without the non-portable cluster size
/// attribute.
constexpr unsigned kMaxPortableClusterSize = 8;

/// One "tensor_maps" entry: a TMA descriptor over the dense row-major buffer
/// of args[arg]. The kernel takes, after the args' pointers, one by-value
/// 128-byte CUtensorMap parameter per "tensor_maps" entry, in order (see
/// runtime/Launch.h).
struct TensorMapSpec {
  int arg = 0;
  DType dtype = DType::F16;
  /// Global dims in elements, innermost first (1 to 5 of them).
  std::vector<int64_t> dims;
  /// Box (tile) dims, one per global dim, each 1 to 256.
  std::vector<int64_t> box;
  unsigned swizzleBytes = 0;     // "none" (0), "32B", "64B", "128B"
  unsigned l2PromotionBytes = 0; // "none" (0), "64B", "128B", "256B"
  bool oobFillNan = false;       // "oob_fill": "nan" (else "zero")
};

/// Checks `spec` against the args it refers to: arg in range, the arg's
/// dtype, dims whose product is the arg's element count, strides that are
/// multiples of 16 bytes, boxes within 1..256 that the swizzle can hold.
/// The message names the field; the caller says which map it was.
bool verifyTensorMapSpec(const TensorMapSpec &spec,
                         const std::vector<ArgSpec> &args, std::string &error);

struct TargetInfo {
  std::string name, chip;
  double l2Bytes = 0, peakTflops = 0, peakGbps = 0;
};

/// The compiler's cost-model numbers; all zero when the manifest has none.
struct CostInfo {
  bool present = false;
  double tcFlops = 0, ewFlops = 0, bytes = 0;
  double tIdealUs = 0, tPredUs = 0, solPred = 0;
  std::string bound;
};

//===----------------------------------------------------------------------===//
// Dynamic manifests (docs/dynamic-shapes.md, section 5)
//===----------------------------------------------------------------------===//

/// The largest value a dynamic dim may take (the compiler's kMaxDynamicDim):
/// the kernels take it as an i64, the grids of its rows stay within CUDA's.
constexpr int64_t kMaxDynamicDim = (int64_t(1) << 31) - 1;
/// What a shape holds for the dynamic dim (only dim 0 of a dynamic
/// manifest's args, program values and tensor-map dims).
constexpr int64_t kDynamicDim = -1;

/// "dynamic_dim": the range of the outermost dim a dynamic kernel serves.
struct DynamicDimInfo {
  bool present = false;
  int64_t min = 1, max = 1;
  std::vector<int64_t> hints;
};

/// "grid_rows" of a plan row: how the launch grid follows the dim.
/// grid[axis] = ceil(dim * elementsPerDim / elementsPerBlock) * times,
/// capped at max (when max > 0), rounded up to a multiple of cluster[axis].
struct GridRule {
  unsigned axis = 0;
  int64_t elementsPerDim = 1, elementsPerBlock = 1, times = 1, max = 0;
};

/// The grid dim `rule` gives at `dim` for a launch whose cluster along the
/// rule's axis is `cluster` (>= 1). 0 at dim 0.
int64_t evaluateGridRule(const GridRule &rule, int64_t dim, int64_t cluster);

/// One "plans" row: the kernel serving m_min..m_max (inclusive).
struct PlanRow {
  int64_t mMin = 0, mMax = 0;
  std::string kernel, ptxPath, cubinPath; // absolute or "" when absent
  std::string plan;    // the row's "plan" object as compact JSON, or ""
  LaunchConfig launch; // its grid is the row's at m_max
  GridRule gridRows;
  /// Maps over the args; a dim of kDynamicDim is resolved at the launch's M.
  std::vector<TensorMapSpec> tensorMaps;
  CostInfo cost; // at m_max, when the compiler wrote it
};

/// A "cost_at" entry: the cost model at one value of the dim.
struct CostPoint {
  int64_t m = 0;
  CostInfo cost;
};

struct Manifest {
  std::string path;      // the file it was loaded from ("" when from text)
  std::string directory; // relative binary paths resolve against this
  /// The GPU kernel's entry (a specialized dynamic manifest: its row's).
  std::string kernel;
  /// A specialized dynamic manifest: the CPU function serving every M (the
  /// dynamic manifest's "kernel"); "" when it is `kernel`.
  std::string hostKernel;
  std::string ptxPath, cubinPath, libPath; // absolute or "" when absent
  TargetInfo target;
  LaunchConfig launch;
  std::vector<ArgSpec> args;
  /// "tensor_maps": extra kernel parameters after the args (may be empty).
  std::vector<TensorMapSpec> tensorMaps;
  std::vector<ProgramOp> program;
  std::vector<int> outputs; // program value ids, one per output arg, in order
  CostInfo cost;
  /// The "plan" object as compact JSON text (for reports), or "".
  std::string plan;

  /// A dynamic manifest (as parsed): shapes hold kDynamicDim in dim 0, the
  /// launch is per row of `plans`, and nothing can run until
  /// specializeManifest resolves it at one M.
  DynamicDimInfo dynamicDim;
  std::vector<PlanRow> plans;
  std::vector<CostPoint> costAt;
  /// A manifest specializeManifest made: the M it is at (else -1). Its
  /// kernel takes one more parameter, this value as an i64, after the args
  /// and maps (Launch.h); the host kernel takes a pointer to it last.
  int64_t dim = -1;
  /// The row of the dynamic manifest it came from, for reports.
  int64_t rowMin = 0, rowMax = 0;

  bool isDynamic() const { return dynamicDim.present; }
  /// The host backend's function: `void f(void *..., [const int64_t *dim])`.
  const std::string &getHostEntry() const {
    return hostKernel.empty() ? kernel : hostKernel;
  }
  /// Whether the kernel takes the dim (a specialized dynamic manifest).
  bool hasDimParam() const { return dim >= 0; }
  /// Specialized at M = 0: there is nothing to launch, outputs are empty.
  bool isEmptyLaunch() const { return dim == 0; }

  size_t getNumInputs() const;
  /// Index into `args` of output `outputIndex`.
  size_t getOutputArgIndex(size_t outputIndex) const {
    return getNumInputs() + outputIndex;
  }
  size_t getTotalArgBytes() const;
  /// Kernel parameters: one per arg, then one per tensor map, then the dim
  /// of a specialized dynamic manifest.
  size_t getNumKernelParams() const {
    return args.size() + tensorMaps.size() + (hasDimParam() ? 1 : 0);
  }
};

/// Parses and validates manifest JSON. `directory` is where relative binary
/// paths point. Returns false with a message naming the offending field by
/// its JSON path (`program[3] (arg): "index" = 2147483648 out of range (0 to
/// 2147483647)`). Never crashes on any text: every integer is range-checked
/// before it is narrowed or used as an index, every shape holds at most
/// kMaxElements elements, and the launch fits CUDA's limits.
bool parseManifest(const std::string &text, const std::string &directory,
                   Manifest &manifest, std::string &error);
/// Reads a whole file (at most 256 MiB); false with a message otherwise.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);
/// Reads, parses and validates the manifest file at `path`.
bool loadManifest(const std::string &path, Manifest &manifest,
                  std::string &error);

/// The static manifest `manifest` (a dynamic one) is at `dim`: the row
/// holding `dim` (its kernel, binaries, plan, launch and cost), every shape
/// and tensor-map dim with the dynamic dim resolved, the grid by the row's
/// rule, and `dim` recorded for the launch's i64 parameter. `dim` = 0 gives
/// a manifest with empty shapes that launches nothing (isEmptyLaunch). False
/// with a message naming the range when `dim` is outside it, or when
/// `manifest` is not dynamic.
bool specializeManifest(const Manifest &manifest, int64_t dim, Manifest &out,
                        std::string &error);

/// "[1, 65536]": a dynamic manifest's range, for messages.
std::string formatDimRange(const DynamicDimInfo &range);

/// The result shape of broadcasting `lhs` with `rhs` numpy-style; false when
/// they do not broadcast.
bool broadcastShapes(const Shape &lhs, const Shape &rhs, Shape &result);

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_MANIFEST_H
