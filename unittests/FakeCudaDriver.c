/*===- FakeCudaDriver.c - a CUDA driver stand-in for the runner's tests ---===*
 *
 * CI has no GPU, so RunnerTest dlopens this library in place of libcuda.so.1
 * to drive the CUDA backend end to end: module load (and its failure with a
 * JIT log), entry lookup, allocations, copies, tensor map encodes, the
 * checked launch (plain or in clusters) and the timed loop. "Device" memory
 * is host memory; a launch runs a host version of the kernel; every timed rep
 * reports 0.5 ms. What the tests check is recorded in `fakeCudaRecord`
 * (FakeCudaDriver.h).
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L /* posix_memalign */

#include "FakeCudaDriver.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum {
  Success = 0,
  ErrorInvalidValue = 1,
  ErrorInvalidPtx = 218,
  ErrorNotFound = 500
};
enum {
  KernelAdd = 1,
  KernelAddWrong = 2,
  KernelLaunchFails = 3,
  /* out = a + b over 3x8 f32, reading a and b through two tensor maps
   * (params 3 and 4). */
  KernelAddTma = 4
};

FakeCudaRecord fakeCudaRecord;

void fakeCudaReset(void) { memset(&fakeCudaRecord, 0, sizeof(fakeCudaRecord)); }

CUresult cuInit(unsigned flags) { (void)flags; return Success; }
/* SOL_FAKE_CUDA_DEVICES devices (default 1), for the per-device tests. */
CUresult cuDeviceGetCount(int *count) {
  const char *devices = getenv("SOL_FAKE_CUDA_DEVICES");
  *count = devices && atoi(devices) > 0 ? atoi(devices) : 1;
  return Success;
}
CUresult cuDeviceGet(int *device, int ordinal) { *device = ordinal; return Success; }
CUresult cuDeviceGetName(char *name, int length, int device) {
  (void)device;
  strncpy(name, "Fake GPU", (size_t)length);
  return Success;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  switch (attribute) {
  case 75: *value = 9; break;          /* compute capability major */
  case 76: *value = 0; break;          /* minor */
  case 38: *value = 1 << 20; break;    /* L2 bytes */
  case 97: *value = 232448; break;     /* opt-in shared memory per block */
  default: *value = 0;
  }
  return Success;
}
/* One primary context per device; a context's value is its device. */
static int contexts[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static int currentDevice = -1;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  if (device < 0 || device >= 8)
    return 101; /* CUDA_ERROR_INVALID_DEVICE */
  *ctx = &contexts[device];
  return Success;
}
CUresult cuCtxSetCurrent(void *ctx) {
  currentDevice = ctx ? *(int *)ctx : -1;
  return Success;
}
CUresult cuCtxSynchronize(void) {
  ++fakeCudaRecord.synchronizes;
  return Success;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned count,
                            int *options, void **values) {
  if (strncmp((const char *)image, "FAIL", 4) == 0) {
    for (unsigned i = 0; i < count; ++i)
      if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
        strcpy((char *)values[i], "ptxas fatal: fake syntax error");
    return ErrorInvalidPtx;
  }
  *module = malloc(1);
  return Success;
}
CUresult cuModuleLoadData(void **module, const void *image) {
  return cuModuleLoadDataEx(module, image, 0, 0, 0);
}
CUresult cuModuleUnload(void *module) { free(module); return Success; }
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  (void)module;
  if (strcmp(name, "add_f32") == 0)
    *function = (void *)KernelAdd;
  else if (strcmp(name, "add_f32_wrong") == 0)
    *function = (void *)KernelAddWrong;
  else if (strcmp(name, "add_f32_launch_fails") == 0)
    *function = (void *)KernelLaunchFails;
  else if (strcmp(name, "add_f32_tma") == 0)
    *function = (void *)KernelAddTma;
  else
    return ErrorNotFound;
  return Success;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  (void)function; (void)attribute; (void)value;
  return Success;
}
/* A function's attributes (registers 4, local bytes 3, static shared 1,
 * max threads 0) as a small kernel has them. */
CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  (void)function;
  *value = attribute == 4 ? 32 : attribute == 0 ? 1024 : 0;
  return Success;
}

CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *totalBytes) {
  *freeBytes = (size_t)1 << 30;
  *totalBytes = (size_t)2 << 30;
  return Success;
}
/* The real driver aligns allocations to at least 256 bytes. */
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  void *memory = NULL;
  if (posix_memalign(&memory, 256, bytes ? bytes : 1) != 0)
    return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *pointer = (CUdeviceptr)(size_t)memory;
  ++fakeCudaRecord.allocations;
  return Success;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  free((void *)(size_t)pointer);
  ++fakeCudaRecord.frees;
  return Success;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void *from, size_t bytes) {
  memcpy((void *)(size_t)to, from, bytes);
  return Success;
}
CUresult cuMemcpyDtoH_v2(void *to, CUdeviceptr from, size_t bytes) {
  memcpy(to, (const void *)(size_t)from, bytes);
  return Success;
}
CUresult cuMemsetD8_v2(CUdeviceptr to, unsigned char value, size_t count) {
  memset((void *)(size_t)to, value, count);
  return Success;
}
CUresult cuMemsetD16_v2(CUdeviceptr to, unsigned short value, size_t count) {
  unsigned short *data = (unsigned short *)(size_t)to;
  for (size_t i = 0; i < count; ++i)
    data[i] = value;
  return Success;
}

/* The buffer the by-value tensor map parameter at `param` (kernelParams[i]:
 * a host pointer to the map's 128 bytes, which the driver copies at launch)
 * describes, and whether it is the one passed as its arg; NULL when `param`
 * holds no map (e.g. it points at a device pointer to one). */
static const float *readMapParam(const void *param, const float *arg,
                                 unsigned long long *address) {
  unsigned long long words[16];
  memcpy(words, param, sizeof(words)); /* what cuLaunchKernel copies */
  if (words[0] != FAKE_CUDA_MAP_MAGIC)
    return NULL;
  *address = words[1];
  const float *data = (const float *)(size_t)words[1];
  if (data != arg)
    ++fakeCudaRecord.mapMismatches;
  return data;
}

/* Runs the host version of `function` on the params a launch got: out = a +
 * b over 3x5 f32 (the wrong kernel subtracts; the TMA one adds 3x8 f32 and
 * reads a and b through its two by-value map parameters, params 3 and 4). */
static CUresult runKernel(void *function, void **params) {
  size_t kind = (size_t)function;
  if (kind == KernelLaunchFails)
    return 719; /* CUDA_ERROR_LAUNCH_FAILED */
  FakeCudaLaunch *launch = &fakeCudaRecord.lastLaunch;
  const int numArgs = 3;
  launch->numParams = kind == KernelAddTma ? 5 : 3;
  for (int i = 0; i < numArgs; ++i)
    launch->params[i] = *(CUdeviceptr *)params[i];
  /* A by-value map: the host address of its bytes. */
  for (int i = numArgs; i < launch->numParams; ++i)
    launch->params[i] = (size_t)params[i];
  const float *a = *(const float **)params[0];
  const float *b = *(const float **)params[1];
  float *out = *(float **)params[2];
  if (kind == KernelAddTma) {
    /* .param .align 64 .b8 [128]: the driver wants the source aligned. */
    if ((size_t)params[3] % 64 != 0 || (size_t)params[4] % 64 != 0)
      return ErrorInvalidValue;
    a = readMapParam(params[3], a, &launch->mapAddress[0]);
    b = readMapParam(params[4], b, &launch->mapAddress[1]);
    if (!a || !b)
      return 700; /* CUDA_ERROR_ILLEGAL_ADDRESS: not a map */
  }
  int count = kind == KernelAddTma ? 24 : 15;
  for (int i = 0; i < count; ++i)
    out[i] = kind == KernelAddWrong ? a[i] - b[i] : a[i] + b[i];
  ++fakeCudaRecord.launches;
  fakeCudaRecord.launchDevice = currentDevice;
  return Success;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)stream;
  (void)extra;
  FakeCudaLaunch *launch = &fakeCudaRecord.lastLaunch;
  memset(launch, 0, sizeof(*launch));
  launch->grid[0] = gx;
  launch->grid[1] = gy;
  launch->grid[2] = gz;
  launch->block[0] = bx;
  launch->block[1] = by;
  launch->block[2] = bz;
  launch->smem = smem;
  return runKernel(function, params);
}

/* cuda.h's extensible launch configuration, reproduced here as the runtime
 * reproduces it (CudaDriver.h): the test passes only if both match. */
typedef struct {
  int id;
  char pad[4];
  union {
    char pad[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
    void *alignment;
  } value;
} CUlaunchAttribute;
typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void *hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
} CUlaunchConfig;
_Static_assert(sizeof(CUlaunchAttribute) == 72, "CUlaunchAttribute");
_Static_assert(sizeof(CUlaunchConfig) == 56 &&
                   offsetof(CUlaunchConfig, attrs) == 40,
               "CUlaunchConfig");

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, void *function,
                          void **params, void **extra) {
  (void)extra;
  FakeCudaLaunch *launch = &fakeCudaRecord.lastLaunch;
  memset(launch, 0, sizeof(*launch));
  launch->viaEx = 1;
  launch->grid[0] = config->gridDimX;
  launch->grid[1] = config->gridDimY;
  launch->grid[2] = config->gridDimZ;
  launch->block[0] = config->blockDimX;
  launch->block[1] = config->blockDimY;
  launch->block[2] = config->blockDimZ;
  launch->smem = config->sharedMemBytes;
  launch->numAttrs = config->numAttrs;
  if (config->numAttrs > 0) {
    const CUlaunchAttribute *attribute = &config->attrs[0];
    launch->attrId = attribute->id;
    if (attribute->id == 4) { /* CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION */
      launch->cluster[0] = attribute->value.clusterDim.x;
      launch->cluster[1] = attribute->value.clusterDim.y;
      launch->cluster[2] = attribute->value.clusterDim.z;
      /* As the driver: the grid must be whole clusters. */
      for (int i = 0; i < 3; ++i)
        if (launch->cluster[i] == 0 || launch->grid[i] % launch->cluster[i])
          return ErrorInvalidValue;
    }
  }
  CUresult result = runKernel(function, params);
  if (result == Success)
    ++fakeCudaRecord.launchesEx;
  return result;
}

/* Records the arguments and writes a map the TMA kernel can read: the magic,
 * then the global address. Rejects what the driver rejects first: a map not
 * 64-byte aligned, an address not 16-byte aligned. */
CUresult cuTensorMapEncodeTiled(void *map, int dataType, unsigned rank,
                                void *address, const unsigned long long *dims,
                                const unsigned long long *strides,
                                const unsigned *box,
                                const unsigned *elementStrides, int interleave,
                                int swizzle, int l2Promotion, int oobFill) {
  if ((size_t)map % 64 != 0 || (size_t)address % 16 != 0 || rank < 1 ||
      rank > 5)
    return ErrorInvalidValue;
  if (fakeCudaRecord.encodes < FAKE_CUDA_MAX_ENCODES) {
    FakeCudaEncode *encode = &fakeCudaRecord.encode[fakeCudaRecord.encodes];
    encode->dataType = dataType;
    encode->rank = rank;
    encode->globalAddress = (size_t)address;
    for (unsigned i = 0; i < rank; ++i) {
      encode->globalDim[i] = dims[i];
      if (i + 1 < rank)
        encode->globalStrides[i] = strides[i];
      encode->boxDim[i] = box[i];
      encode->elementStrides[i] = elementStrides[i];
    }
    encode->interleave = interleave;
    encode->swizzle = swizzle;
    encode->l2Promotion = l2Promotion;
    encode->oobFill = oobFill;
  }
  ++fakeCudaRecord.encodes;
  unsigned long long *words = (unsigned long long *)map;
  memset(words, 0, 128);
  words[0] = FAKE_CUDA_MAP_MAGIC;
  words[1] = (size_t)address;
  return Success;
}

CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = malloc(1);
  return Success;
}
CUresult cuEventDestroy_v2(void *event) { free(event); return Success; }
CUresult cuEventRecord(void *event, void *stream) { (void)event; (void)stream; return Success; }
CUresult cuEventSynchronize(void *event) { (void)event; return Success; }
/* Only the unversioned name: the runner must fall back to it. */
CUresult cuEventElapsedTime(float *milliseconds, void *start, void *stop) {
  (void)start; (void)stop;
  *milliseconds = 0.5f;
  return Success;
}
CUresult cuGetErrorString(CUresult result, const char **text) {
  *text = result == ErrorNotFound ? "named symbol not found" : "fake error";
  return Success;
}
CUresult cuGetErrorName(CUresult result, const char **text) {
  *text = result == ErrorNotFound       ? "CUDA_ERROR_NOT_FOUND"
          : result == ErrorInvalidPtx   ? "CUDA_ERROR_INVALID_PTX"
          : result == ErrorInvalidValue ? "CUDA_ERROR_INVALID_VALUE"
                                        : "CUDA_ERROR_LAUNCH_FAILED";
  return Success;
}
