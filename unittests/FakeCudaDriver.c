/*===- FakeCudaDriver.c - a CUDA driver stand-in for the runner's tests ---===*
 *
 * CI has no GPU, so RunnerTest dlopens this library in place of libcuda.so.1
 * to drive the CUDA backend end to end: module load (and its failure with a
 * JIT log), entry lookup, allocations, copies, the checked launch and the
 * timed loop. "Device" memory is host memory; a launch runs a host version
 * of the kernel; every timed rep reports 0.5 ms.
 *
 *===----------------------------------------------------------------------===*/

#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { Success = 0, ErrorInvalidPtx = 218, ErrorNotFound = 500 };
enum { KernelAdd = 1, KernelAddWrong = 2, KernelLaunchFails = 3 };

/* How many launches ran, so the test can see warm-up plus timed launches. */
int fakeCudaLaunchCount = 0;

CUresult cuInit(unsigned flags) { (void)flags; return Success; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return Success; }
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
static int context;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int device) {
  (void)device;
  *ctx = &context;
  return Success;
}
CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return Success; }
CUresult cuCtxSynchronize(void) { return Success; }

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
  else
    return ErrorNotFound;
  return Success;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  (void)function; (void)attribute; (void)value;
  return Success;
}

CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *totalBytes) {
  *freeBytes = (size_t)1 << 30;
  *totalBytes = (size_t)2 << 30;
  return Success;
}
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  *pointer = (CUdeviceptr)(size_t)malloc(bytes);
  return Success;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) { free((void *)(size_t)pointer); return Success; }
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

/* out = a + b over 3x5 f32 (the wrong kernel subtracts). */
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem;
  (void)stream; (void)extra;
  if ((size_t)function == KernelLaunchFails)
    return 719; /* CUDA_ERROR_LAUNCH_FAILED */
  const float *a = *(const float **)params[0];
  const float *b = *(const float **)params[1];
  float *out = *(float **)params[2];
  for (int i = 0; i < 15; ++i)
    out[i] = (size_t)function == KernelAdd ? a[i] + b[i] : a[i] - b[i];
  ++fakeCudaLaunchCount;
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
  *text = result == ErrorNotFound     ? "CUDA_ERROR_NOT_FOUND"
          : result == ErrorInvalidPtx ? "CUDA_ERROR_INVALID_PTX"
                                      : "CUDA_ERROR_LAUNCH_FAILED";
  return Success;
}
