//===- Launch.h - tensor maps and cluster launches --------------*- C++ -*-===//
//
// What every launcher (sol-run's Runner, the C API, and in Python
// bench/run_bench.py) does beyond cuLaunchKernel for a manifest with
// "tensor_maps" (Hopper TMA descriptors) or a "launch": {"cluster": ...}.
//
// Kernel ABI: the kernel's parameters are one device pointer per manifest
// arg, in order, then one per "tensor_maps" entry, in order: a device pointer
// to global memory (64-byte aligned) holding that map's 128-byte CUtensorMap,
// encoded by cuTensorMapEncodeTiled over the arg's buffer. A map embeds the
// buffer's address, so each distinct set of arg buffers needs its own maps.
// A cluster launch goes through cuLaunchKernelEx with a
// CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION attribute.
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

/// Bytes each encoded map takes in the device buffer of a launch's maps
/// (sizeof(CUtensorMap), a multiple of its alignment).
constexpr size_t kTensorMapBytes = sizeof(cuda::CUtensorMap);

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

/// Encodes the maps and copies them (cuMemcpyHtoD) into one new device
/// buffer, `*buffer`, which the caller frees with cuMemFree; map i is at
/// getTensorMapPointer(*buffer, i). Leaves `*buffer` 0 when there are no maps
/// or on failure (nothing to free then).
bool uploadTensorMaps(const cuda::CudaDriver &driver, const Manifest &manifest,
                      const cuda::CUdeviceptr *argPointers,
                      cuda::CUdeviceptr &buffer, std::string &error);

inline cuda::CUdeviceptr getTensorMapPointer(cuda::CUdeviceptr buffer,
                                             size_t index) {
  return buffer + kTensorMapBytes * index;
}

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
