//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//

#include "runtime/CudaDriver.h"

#include <dlfcn.h>
#include <initializer_list>

using namespace sol::runtime::cuda;

/// Resolves the first of `names` that the driver exports into `function`.
/// Several entry points were versioned (_v2) when their ABI changed; the
/// versioned name is the one cuda.h maps the plain name to, and it is tried
/// first, with the plain one as a fallback for older drivers.
template <typename FunctionPointer>
static bool resolve(void *handle, FunctionPointer &function,
                    std::initializer_list<const char *> names,
                    std::string &error) {
  for (const char *name : names) {
    if (void *symbol = dlsym(handle, name)) {
      function = reinterpret_cast<FunctionPointer>(symbol);
      return true;
    }
  }
  error = std::string("the CUDA driver does not export ") + *names.begin() +
          " (driver too old?)";
  return false;
}

bool CudaDriver::load(std::string &error, const char *libraryName) {
  if (handle)
    return true;
  void *library = dlopen(libraryName, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    error = std::string(libraryName) +
            " not found: this machine has no NVIDIA driver";
    if (const char *reason = dlerror())
      error += std::string(" (") + reason + ")";
    return false;
  }
  bool ok =
      resolve(library, cuInit, {"cuInit"}, error) &&
      resolve(library, cuDeviceGetCount, {"cuDeviceGetCount"}, error) &&
      resolve(library, cuDeviceGet, {"cuDeviceGet"}, error) &&
      resolve(library, cuDeviceGetName, {"cuDeviceGetName"}, error) &&
      resolve(library, cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, error) &&
      resolve(library, cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"},
              error) &&
      resolve(library, cuCtxSetCurrent, {"cuCtxSetCurrent"}, error) &&
      resolve(library, cuCtxSynchronize, {"cuCtxSynchronize"}, error) &&
      resolve(library, cuModuleLoadData, {"cuModuleLoadData"}, error) &&
      resolve(library, cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, error) &&
      resolve(library, cuModuleUnload, {"cuModuleUnload"}, error) &&
      resolve(library, cuModuleGetFunction, {"cuModuleGetFunction"}, error) &&
      resolve(library, cuFuncSetAttribute, {"cuFuncSetAttribute"}, error) &&
      resolve(library, cuMemGetInfo, {"cuMemGetInfo_v2", "cuMemGetInfo"},
              error) &&
      resolve(library, cuMemAlloc, {"cuMemAlloc_v2", "cuMemAlloc"}, error) &&
      resolve(library, cuMemFree, {"cuMemFree_v2", "cuMemFree"}, error) &&
      resolve(library, cuMemcpyHtoD, {"cuMemcpyHtoD_v2", "cuMemcpyHtoD"},
              error) &&
      resolve(library, cuMemcpyDtoH, {"cuMemcpyDtoH_v2", "cuMemcpyDtoH"},
              error) &&
      resolve(library, cuMemsetD8, {"cuMemsetD8_v2", "cuMemsetD8"}, error) &&
      resolve(library, cuMemsetD16, {"cuMemsetD16_v2", "cuMemsetD16"}, error) &&
      resolve(library, cuLaunchKernel, {"cuLaunchKernel"}, error) &&
      resolve(library, cuEventCreate, {"cuEventCreate"}, error) &&
      resolve(library, cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"},
              error) &&
      resolve(library, cuEventRecord, {"cuEventRecord"}, error) &&
      resolve(library, cuEventSynchronize, {"cuEventSynchronize"}, error) &&
      resolve(library, cuEventElapsedTime,
              {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, error) &&
      resolve(library, cuGetErrorString, {"cuGetErrorString"}, error) &&
      resolve(library, cuGetErrorName, {"cuGetErrorName"}, error);
  if (!ok) {
    dlclose(library);
    return false;
  }
  // Optional entry points (CUDA 12+): a missing one stays null, and the
  // launchers say so only for a kernel that needs it.
  std::string ignored;
  if (!resolve(library, cuLaunchKernelEx, {"cuLaunchKernelEx"}, ignored))
    cuLaunchKernelEx = nullptr;
  if (!resolve(library, cuTensorMapEncodeTiled, {"cuTensorMapEncodeTiled"},
               ignored))
    cuTensorMapEncodeTiled = nullptr;
  if (!resolve(library, cuFuncGetAttribute, {"cuFuncGetAttribute"}, ignored))
    cuFuncGetAttribute = nullptr;
  handle = library;
  return true;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr, *description = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &description);
  std::string text = name ? name : "CUDA error " + std::to_string(result);
  if (description)
    text += std::string(" (") + description + ")";
  return text;
}

bool CudaDriver::check(CUresult result, const char *call,
                       std::string &error) const {
  if (result == CUDA_SUCCESS)
    return true;
  error = std::string(call) + " failed: " + describe(result);
  return false;
}
