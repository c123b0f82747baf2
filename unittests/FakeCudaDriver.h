/*===- FakeCudaDriver.h - what the fake CUDA driver saw, for the tests ----===*
 *
 * FakeCudaDriver.c records the calls the tests check (tensor map encodes,
 * launches, allocations) in one global, `fakeCudaRecord`; a test dlopens the
 * fake (the same instance the code under test loaded) and reads it through
 * dlsym. C and C++ both include this header, so the layout is shared.
 *
 *===----------------------------------------------------------------------===*/

#ifndef SOL_UNITTESTS_FAKECUDADRIVER_H
#define SOL_UNITTESTS_FAKECUDADRIVER_H

#define FAKE_CUDA_MAX_ENCODES 16
#define FAKE_CUDA_MAX_PARAMS 8
/* What the fake cuTensorMapEncodeTiled writes in the first two words of a
 * map: this magic, then the map's global address. */
#define FAKE_CUDA_MAP_MAGIC 0x50414d4f534c4f53ull

/* The arguments of one cuTensorMapEncodeTiled call. */
typedef struct {
  int dataType;
  unsigned rank;
  unsigned long long globalAddress;
  unsigned long long globalDim[5];
  unsigned long long globalStrides[4];
  unsigned boxDim[5];
  unsigned elementStrides[5];
  int interleave, swizzle, l2Promotion, oobFill;
} FakeCudaEncode;

/* One launch, through cuLaunchKernel (viaEx 0) or cuLaunchKernelEx. */
typedef struct {
  int viaEx;
  unsigned grid[3], block[3], smem;
  unsigned numAttrs;
  int attrId;          /* of the first attribute */
  unsigned cluster[3]; /* its cluster dims, when it is one */
  int numParams;       /* the kernel's parameter count */
  /* The values passed: a pointer per arg, then for each by-value tensor map
   * the host address of its 128 bytes (kernelParams[i] itself). */
  unsigned long long params[FAKE_CUDA_MAX_PARAMS];
  /* The global address each map parameter described, in map order. */
  unsigned long long mapAddress[FAKE_CUDA_MAX_PARAMS];
} FakeCudaLaunch;

typedef struct {
  int launches;   /* successful launches, either entry point */
  int launchesEx; /* of which through cuLaunchKernelEx */
  int encodes;    /* cuTensorMapEncodeTiled calls that succeeded */
  /* Map parameters that did not describe the buffer passed as their arg (a
   * map encoded for another set of buffers). */
  int mapMismatches;
  /* cuMemAlloc, cuMemFree and cuCtxSynchronize calls. */
  int allocations, frees, synchronizes;
  /* The device whose context was current at the last launch. */
  int launchDevice;
  FakeCudaEncode encode[FAKE_CUDA_MAX_ENCODES]; /* the first encodes */
  FakeCudaLaunch lastLaunch;
} FakeCudaRecord;

#endif /* SOL_UNITTESTS_FAKECUDADRIVER_H */
