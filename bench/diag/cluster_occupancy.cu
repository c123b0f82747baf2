// How many 2-CTA clusters of sol's wgmma_tma block (384 threads, ~193 KiB
// of dynamic shared memory) the card keeps resident at once: a persistent
// grid larger than that runs its surplus clusters after the others finish.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void block384() {}

int main() {
  int smem[] = {197696, 197728};
  for (int bytes : smem) {
    cudaFuncSetAttribute(block384, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    cudaFuncSetAttribute(block384, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    for (int cluster : {1, 2, 4}) {
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(132, 1, 1);
      config.blockDim = dim3(384, 1, 1);
      config.dynamicSmemBytes = bytes;
      cudaLaunchAttribute attr;
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = cluster;
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      config.attrs = &attr;
      config.numAttrs = 1;
      int clusters = -1;
      cudaError_t err = cudaOccupancyMaxActiveClusters(&clusters, block384, &config);
      printf("smem %d cluster %d: max active clusters %d (%d blocks) %s\n", bytes,
             cluster, clusters, clusters * cluster, cudaGetErrorString(err));
    }
  }
  return 0;
}
