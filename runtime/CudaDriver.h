//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// sol builds on machines without a GPU or the CUDA toolkit, so the runtime
// never links libcuda: it dlopens libcuda.so.1 and looks up the entry points
// it needs. The few driver types and constants are declared here with the
// values of the stable driver ABI (cuda.h) so that no toolkit header is
// needed either.
//
//===----------------------------------------------------------------------===//

#ifndef SOL_RUNTIME_CUDADRIVER_H
#define SOL_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace sol {
namespace runtime {
namespace cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;
constexpr unsigned CU_EVENT_DEFAULT = 0;

// Tensor maps (TMA descriptors, sm_90+): the CUtensorMap* enums of cuda.h.
constexpr int CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6;
constexpr int CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7;
constexpr int CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9;
constexpr int CU_TENSOR_MAP_INTERLEAVE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_NONE = 0;
constexpr int CU_TENSOR_MAP_SWIZZLE_32B = 1;
constexpr int CU_TENSOR_MAP_SWIZZLE_64B = 2;
constexpr int CU_TENSOR_MAP_SWIZZLE_128B = 3;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_NONE = 0;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2;
constexpr int CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3;
constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0;
constexpr int CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1;
constexpr int CU_TENSOR_MAP_MAX_RANK = 5;

/// The opaque 128-byte descriptor cuTensorMapEncodeTiled fills
/// (CUtensorMap_st). The driver needs it 64-byte aligned; cuda.h aligns it
/// to 128, and so does this copy.
struct alignas(128) CUtensorMap {
  uint64_t opaque[16];
};
static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) == 128,
              "CUtensorMap must match cuda.h");

// Extensible launches (cuLaunchKernelEx), for thread-block clusters.
using CUlaunchAttributeID = int;
constexpr CUlaunchAttributeID CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4;

/// CUlaunchAttributeValue: a 64-byte union whose other members hold
/// pointers (CUevent), hence its 8-byte alignment.
union CUlaunchAttributeValue {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
  void *alignment; // stands for the pointer members this runtime never sets
};
static_assert(sizeof(CUlaunchAttributeValue) == 64 &&
                  alignof(CUlaunchAttributeValue) == 8,
              "CUlaunchAttributeValue must match cuda.h");

struct CUlaunchAttribute {
  CUlaunchAttributeID id;
  char pad[8 - sizeof(CUlaunchAttributeID)];
  CUlaunchAttributeValue value;
};
static_assert(sizeof(CUlaunchAttribute) == 72 &&
                  offsetof(CUlaunchAttribute, value) == 8,
              "CUlaunchAttribute must match cuda.h");

struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
static_assert(sizeof(CUlaunchConfig) == 56 &&
                  offsetof(CUlaunchConfig, hStream) == 32 &&
                  offsetof(CUlaunchConfig, attrs) == 40 &&
                  offsetof(CUlaunchConfig, numAttrs) == 48,
              "CUlaunchConfig must match cuda.h");

/// The driver entry points, resolved by load().
struct CudaDriver {
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule,
                                  const char *) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuMemGetInfo)(size_t *, size_t *) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*cuMemsetD16)(CUdeviceptr, unsigned short, size_t) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **) = nullptr;
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;

  // Optional: drivers before CUDA 12 lack them. Null then; only a manifest
  // with "tensor_maps" or a "cluster" launch needs them (see
  // checkLaunchSupport in runtime/Launch.h).
  CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                               void **) = nullptr;
  CUresult (*cuTensorMapEncodeTiled)(CUtensorMap *, int, uint32_t, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int) = nullptr;
  // Optional too: only reports ask a function's registers and spills.
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction) = nullptr;

  /// dlopens `libraryName` and resolves every entry point. On failure returns
  /// false with a message that says what is missing; never aborts.
  bool load(std::string &error, const char *libraryName = "libcuda.so.1");
  bool isLoaded() const { return handle != nullptr; }

  /// "CUDA_ERROR_X (description)" for `result`.
  std::string describe(CUresult result) const;
  /// Checks `result` of `call`: on failure sets `error` to
  /// "<call> failed: CUDA_ERROR_X (description)" and returns false.
  bool check(CUresult result, const char *call, std::string &error) const;

private:
  void *handle = nullptr;
};

} // namespace cuda
} // namespace runtime
} // namespace sol

#endif // SOL_RUNTIME_CUDADRIVER_H
