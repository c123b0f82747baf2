// Hand-written kernels for examples/runner-smoke/smoke.sh: they check sol-run
// on a GPU independently of sol's code generation.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
// out[b,m,n] = sum_k x[b,m,k] * w[n,k] + r[b,m,n]; naive, one thread per output.
extern "C" __global__ void mm_res(const __half *x, const __half *w, const __half *r, __half *out) {
  const int B = 4, M = 256, N = 384, K = 512;
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  int bm = blockIdx.y;
  if (n >= N || bm >= B * M) return;
  float acc = 0;
  for (int k = 0; k < K; ++k) acc += __half2float(x[bm * K + k]) * __half2float(w[n * K + k]);
  out[bm * N + n] = __float2half(acc + __half2float(r[bm * N + n]));
}
extern "C" __global__ void gelu_bf16(const __nv_bfloat16 *x, __nv_bfloat16 *y) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= (1l << 24)) return;
  float v = __bfloat162float(x[i]);
  float g = 0.5f * v * (1.f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
  y[i] = __float2bfloat16(g);
}
