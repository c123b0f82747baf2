//===- Launch.h - the launch library: load, encode, launch ------*- C++ -*-===//
//
// The one launch library (CMake target SolLaunch: this file, Manifest.h and
// CudaDriver.h). Everything that launches a sol kernel goes through it:
// sol-run (runtime/Runner.cpp), the C API (lib/CAPI/SolCAPI.cpp,
// libsol_capi.so), and so the Python package (sol.Kernel, through the C API)
// and bench/run_bench.py (through sol.Kernel). It reads the manifest
// (Manifest.h), loads the kernel's module (loadKernel), encodes its tensor
// maps and launches it, in clusters where the manifest says so. It builds
// without LLVM (scripts/build-runner.sh) and dlopens libcuda (CudaDriver.h).
//
// Kernel ABI: the kernel's parameters are one device pointer per manifest
// arg, in order, then one by-value 128-byte CUtensorMap parameter per
// "tensor_maps" entry, in order (PTX `.param .align 64 .b8 p[128]`, CUDA's
// `const __grid_constant__ CUtensorMap`), encoded by cuTensorMapEncodeTiled
// over the arg's buffer. So kernelParams[numArgs + i] points at a host copy
// of map i (64-byte aligned); cuLaunchKernel(Ex) copies the parameters when
// it is called, so that copy need only live until the launch call returns:
// no device memory, no copy, no synchronization (and a launch can be
// captured in a CUDA graph). A map embeds the buffer's address, so each
// distinct set of arg buffers needs its own maps; encoding is host-only and
// takes microseconds, so launchers encode per launch or per buffer set.
// A cluster launch goes through cuLaunchKernelEx with a
// CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION attribute. A dynamic kernel, launched
// through a manifest specializeManifest resolved at one M, takes one more
// parameter after the maps: M, as an i64 by value (docs/dynamic-shapes.md).
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_LAUNCH_H
#define SOL_RUNTIME_LAUNCH_H

#include "runtime/CudaDriver.h"
#include "runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sol {
namespace runtime {

/// Bytes of each by-value map parameter (sizeof(CUtensorMap)).
constexpr size_t kTensorMapBytes = sizeof(cuda::CUtensorMap);
static_assert(kTensorMapBytes == 128 && alignof(cuda::CUtensorMap) % 64 == 0,
              "a map parameter is 128 bytes, 64-byte aligned");

/// The exact arguments of one cuTensorMapEncodeTiled call (bar the output
/// map); entries past `rank` (past `rank - 1` for the strides) are zero.
struct TensorMapEncodeArgs {
  int dataType = 0;
  uint32_t rank = 0;
  cuda::CUdeviceptr globalAddress = 0;
  uint64_t globalDim[cuda::CU_TENSOR_MAP_MAX_RANK] = {};
  uint64_t globalStrides[cuda::CU_TENSOR_MAP_MAX_RANK - 1] = {};
  uint32_t boxDim[cuda::CU_TENSOR_MAP_MAX_RANK] = {};
  uint32_t elementStrides[cuda::CU_TENSOR_MAP_MAX_RANK] = {};
  int interleave = cuda::CU_TENSOR_MAP_INTERLEAVE_NONE;
  int swizzle = cuda::CU_TENSOR_MAP_SWIZZLE_NONE;
  int l2Promotion = cuda::CU_TENSOR_MAP_L2_PROMOTION_NONE;
  int oobFill = cuda::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// The cuTensorMapEncodeTiled arguments for `spec` over the buffer of
/// args[spec.arg] at device address `address`: dense row-major, so the byte
/// strides are the running products of the dims; element strides all 1; no
/// interleave. Checks `spec` (verifyTensorMapSpec) and the address's 16-byte
/// alignment; false with a message naming the field otherwise.
bool getTensorMapEncodeArgs(const TensorMapSpec &spec,
                            const std::vector<ArgSpec> &args,
                            cuda::CUdeviceptr address,
                            TensorMapEncodeArgs &result, std::string &error);

/// The dynamic shared memory a function may use without opting in.
constexpr unsigned kDefaultDynamicSharedBytes = 48 * 1024;

/// Loads `image` (a cubin, or PTX that the driver JITs; PTX must end in a
/// NUL) as a module, looks up its kernel `entry` and lets it use the
/// `dynamicSharedBytes` its launch asks for (cuFuncSetAttribute above
/// kDefaultDynamicSharedBytes). `name` says what the image is in messages
/// ("module '/path/k.cubin'", "the module of 'k'"). False with a message (the
/// JIT's error and info logs included) otherwise; a module loaded before the
/// failure is left in `module` for the caller to unload, else `module` is null.
bool loadKernel(const cuda::CudaDriver &driver, const std::string &image,
                const std::string &entry, unsigned dynamicSharedBytes,
                const std::string &name, cuda::CUmodule &module,
                cuda::CUfunction &function, std::string &error);

/// Whether `driver` exports what `manifest` needs beyond cuLaunchKernel
/// (cuTensorMapEncodeTiled for tensor maps, cuLaunchKernelEx for clusters);
/// false with a message saying which and why otherwise.
bool checkLaunchSupport(const cuda::CudaDriver &driver,
                        const Manifest &manifest, std::string &error);

/// Encodes every tensor map of `manifest` (on the host) for the arg buffers
/// at `argPointers` (one per manifest arg), in "tensor_maps" order.
bool encodeTensorMaps(const cuda::CudaDriver &driver, const Manifest &manifest,
                      const cuda::CUdeviceptr *argPointers,
                      std::vector<cuda::CUtensorMap> &maps, std::string &error);

/// The kernelParams of one launch (Kernel ABI above): pointers to the args'
/// device pointers, then to each map's encoded host copy. Owns all it points
/// at; keep it alive (and unchanged) until the launch call returns, and as
/// long as it is launched again. Movable (the buffers move with it), not
/// copyable.
class KernelParams {
public:
  KernelParams() = default;
  KernelParams(const KernelParams &) = delete;
  KernelParams &operator=(const KernelParams &) = delete;
  KernelParams(KernelParams &&) = default;
  KernelParams &operator=(KernelParams &&) = default;

  /// Takes the args' pointers (one per manifest arg) and encodes the
  /// manifest's maps over them (encodeTensorMaps); false with its message.
  bool init(const cuda::CudaDriver &driver, const Manifest &manifest,
            const cuda::CUdeviceptr *argPointers, std::string &error);

  /// For cuLaunchKernel(Ex): args.size() + maps.size() entries, then the
  /// dim of a specialized dynamic manifest.
  void **data() { return params.data(); }
  size_t size() const { return params.size(); }
  const std::vector<cuda::CUtensorMap> &getMaps() const { return maps; }

private:
  std::vector<cuda::CUdeviceptr> args;
  std::vector<cuda::CUtensorMap> maps; // 128-byte aligned (alignof)
  /// The dim parameter's value (one element or none): in a vector's heap
  /// buffer, like the others, so that a move leaves params pointing at it.
  std::vector<int64_t> dim;
  std::vector<void *> params;
};

/// The cuLaunchKernelEx configuration of `launch` with one cluster dimension
/// attribute, which `attribute` receives (it must outlive the launch call).
cuda::CUlaunchConfig
makeClusterLaunchConfig(const LaunchConfig &launch, cuda::CUstream stream,
                        cuda::CUlaunchAttribute &attribute);

/// Launches `function` as `launch` says: cuLaunchKernel, or cuLaunchKernelEx
/// for a cluster launch (checkLaunchSupport first: this assumes the entry
/// point is there). `params` as for cuLaunchKernel.
cuda::CUresult launchKernel(const cuda::CudaDriver &driver,
                            cuda::CUfunction function,
                            const LaunchConfig &launch, cuda::CUstream stream,
                            void **params);

} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_LAUNCH_H
