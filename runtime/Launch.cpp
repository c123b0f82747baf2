//===- Launch.cpp - the launch library: modules, tensor maps, launches ----===//

#include "runtime/Launch.h"

#include <cstdio>
#include <cstring>

using namespace sol::runtime;
using namespace sol::runtime::cuda;

static int getTensorMapDataType(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  // TMA moves fp8 codes as bytes; the wgmma instruction names their kind.
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
  return -1;
}

static int getSwizzle(unsigned bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

static int getL2Promotion(unsigned bytes) {
  switch (bytes) {
  case 64:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  case 128:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  case 256:
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  default:
    return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  }
}

bool sol::runtime::getTensorMapEncodeArgs(const TensorMapSpec &spec,
                                          const std::vector<ArgSpec> &args,
                                          CUdeviceptr address,
                                          TensorMapEncodeArgs &result,
                                          std::string &error) {
  if (!verifyTensorMapSpec(spec, args, error))
    return false;
  // The driver's only complaint would be CUDA_ERROR_INVALID_VALUE.
  if (address % 16 != 0) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%llx", address);
    error = "the buffer of arg " + std::to_string(spec.arg) + " at " + text +
            " is not 16-byte aligned (TMA needs 16)";
    return false;
  }
  result = TensorMapEncodeArgs();
  result.dataType = getTensorMapDataType(spec.dtype);
  result.rank = static_cast<uint32_t>(spec.dims.size());
  result.globalAddress = address;
  uint64_t stride = getDTypeSize(spec.dtype);
  for (size_t i = 0; i < spec.dims.size(); ++i) {
    result.globalDim[i] = static_cast<uint64_t>(spec.dims[i]);
    // Dense row-major: dim i + 1 steps over everything below it.
    stride *= result.globalDim[i];
    if (i + 1 < spec.dims.size())
      result.globalStrides[i] = stride;
    result.boxDim[i] = static_cast<uint32_t>(spec.box[i]);
    result.elementStrides[i] = 1;
  }
  result.interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  result.swizzle = getSwizzle(spec.swizzleBytes);
  result.l2Promotion = getL2Promotion(spec.l2PromotionBytes);
  // OOB_FILL_NONE fills out-of-bounds elements with zeros.
  result.oobFill = spec.oobFillNan
                       ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  return true;
}

bool sol::runtime::loadKernel(const CudaDriver &driver,
                              const std::string &image,
                              const std::string &entry,
                              unsigned dynamicSharedBytes,
                              const std::string &name, CUmodule &module,
                              CUfunction &function, std::string &error) {
  module = nullptr;
  function = nullptr;
  char infoLog[8192] = {0}, errorLog[8192] = {0};
  CUjit_option options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {infoLog, reinterpret_cast<void *>(sizeof(infoLog) - 1),
                    errorLog, reinterpret_cast<void *>(sizeof(errorLog) - 1)};
  CUresult status =
      driver.cuModuleLoadDataEx(&module, image.data(), 4, options, values);
  if (status != CUDA_SUCCESS) {
    module = nullptr;
    error = "cannot load " + name + ": " + driver.describe(status);
    if (errorLog[0])
      error += "\n  JIT error log:\n" + std::string(errorLog);
    if (infoLog[0])
      error += "\n  JIT info log:\n" + std::string(infoLog);
    return false;
  }
  status = driver.cuModuleGetFunction(&function, module, entry.c_str());
  if (status != CUDA_SUCCESS) {
    function = nullptr;
    error = "kernel entry '" + entry + "' not found in " + name + ": " +
            driver.describe(status);
    return false;
  }
  if (dynamicSharedBytes <= kDefaultDynamicSharedBytes)
    return true;
  return driver.check(
      driver.cuFuncSetAttribute(function,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(dynamicSharedBytes)),
      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", error);
}

bool sol::runtime::checkLaunchSupport(const CudaDriver &driver,
                                      const Manifest &manifest,
                                      std::string &error) {
  if (!manifest.tensorMaps.empty() && !driver.cuTensorMapEncodeTiled) {
    error = "kernel '" + manifest.kernel +
            "' has \"tensor_maps\" but the CUDA driver does not export "
            "cuTensorMapEncodeTiled (CUDA 12 or newer needed)";
    return false;
  }
  if (manifest.launch.hasCluster() && !driver.cuLaunchKernelEx) {
    error = "kernel '" + manifest.kernel +
            "' launches in clusters but the CUDA driver does not export "
            "cuLaunchKernelEx (CUDA 12 or newer needed)";
    return false;
  }
  return true;
}

bool sol::runtime::encodeTensorMaps(const CudaDriver &driver,
                                    const Manifest &manifest,
                                    const CUdeviceptr *argPointers,
                                    std::vector<CUtensorMap> &maps,
                                    std::string &error) {
  maps.assign(manifest.tensorMaps.size(), CUtensorMap());
  if (maps.empty())
    return true;
  if (!checkLaunchSupport(driver, manifest, error))
    return false;
  for (size_t i = 0; i < maps.size(); ++i) {
    const TensorMapSpec &spec = manifest.tensorMaps[i];
    std::string where = "tensor_maps[" + std::to_string(i) + "]";
    bool argInRange =
        spec.arg >= 0 && static_cast<size_t>(spec.arg) < manifest.args.size();
    TensorMapEncodeArgs encode;
    if (!getTensorMapEncodeArgs(spec, manifest.args,
                                argInRange ? argPointers[spec.arg] : 0, encode,
                                error)) {
      error = where + ": " + error;
      return false;
    }
    CUresult status = driver.cuTensorMapEncodeTiled(
        &maps[i], encode.dataType, encode.rank,
        reinterpret_cast<void *>(encode.globalAddress), encode.globalDim,
        encode.globalStrides, encode.boxDim, encode.elementStrides,
        encode.interleave, encode.swizzle, encode.l2Promotion, encode.oobFill);
    if (!driver.check(status, "cuTensorMapEncodeTiled", error)) {
      error = where + " (arg " + std::to_string(spec.arg) + " \"" +
              manifest.args[spec.arg].name + "\", dims " +
              formatShape(spec.dims) + ", box " + formatShape(spec.box) +
              "): " + error;
      return false;
    }
  }
  return true;
}

bool KernelParams::init(const CudaDriver &driver, const Manifest &manifest,
                        const CUdeviceptr *argPointers, std::string &error) {
  args.assign(argPointers, argPointers + manifest.args.size());
  params.clear();
  if (!encodeTensorMaps(driver, manifest, args.data(), maps, error)) {
    maps.clear();
    return false;
  }
  // The args' parameters hold device pointers; the maps' are the maps.
  for (CUdeviceptr &pointer : args)
    params.push_back(&pointer);
  for (CUtensorMap &map : maps)
    params.push_back(&map);
  // A dynamic kernel's last parameter: the value of its dim, by value.
  dim.clear();
  if (manifest.hasDimParam()) {
    dim.push_back(manifest.dim);
    params.push_back(dim.data());
  }
  return true;
}

CUlaunchConfig sol::runtime::makeClusterLaunchConfig(
    const LaunchConfig &launch, CUstream stream, CUlaunchAttribute &attribute) {
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = launch.cluster[0];
  attribute.value.clusterDim.y = launch.cluster[1];
  attribute.value.clusterDim.z = launch.cluster[2];
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = launch.grid[0];
  config.gridDimY = launch.grid[1];
  config.gridDimZ = launch.grid[2];
  config.blockDimX = launch.block[0];
  config.blockDimY = launch.block[1];
  config.blockDimZ = launch.block[2];
  config.sharedMemBytes = launch.dynamicSharedBytes;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

CUresult sol::runtime::launchKernel(const CudaDriver &driver,
                                    CUfunction function,
                                    const LaunchConfig &launch, CUstream stream,
                                    void **params) {
  if (!launch.hasCluster())
    return driver.cuLaunchKernel(
        function, launch.grid[0], launch.grid[1], launch.grid[2],
        launch.block[0], launch.block[1], launch.block[2],
        launch.dynamicSharedBytes, stream, params, nullptr);
  CUlaunchAttribute attribute;
  CUlaunchConfig config = makeClusterLaunchConfig(launch, stream, attribute);
  return driver.cuLaunchKernelEx(&config, function, params, nullptr);
}
