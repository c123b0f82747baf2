// Calls the kernels of cpu-fp8-block-scales.mlir on random e4m3 codes (no
// NaN code) and random scales, and compares each f32 result with a float64
// reference written from the definition of block-wise scales (docs/fp8.md):
//   out[m][n] = sum_kb sa(m, kb) * sb(n / 128, kb) * sum_{k in kb} A[m][k]
//   B[n][k]
// with its own e4m3fn decoder (bias 7, no infinity). The kernel rounds each
// product and sum to f32, so the bound is relative to the sum of the terms'
// magnitudes: K * 2^-22 of it (a few f32 ulps per term, generously).
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { BLOCK = 128 };

static double decodeE4m3(uint8_t code) {
  int exponent = (code >> 3) & 15, mantissa = code & 7;
  double value =
      exponent == 0 ? ldexp(mantissa, -9) : ldexp(8 | mantissa, exponent - 10);
  return (code >> 7) ? -value : value;
}

static uint64_t state;
static uint32_t next(void) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(state >> 33);
}
static uint8_t randomCode(void) {
  for (;;) {
    uint8_t code = (uint8_t)next();
    if ((code & 0x7f) != 0x7f) // not NaN
      return code;
  }
}
static float randomScale(void) {
  return (float)(0.25 + (next() % 1024) / 512.0);
}

// The scale shapes of a case: how scale_a and scale_b are indexed.
enum ScaleA { PER_TOKEN, PER_GROUP };

typedef void (*Kernel4)(void *, void *, void *, void *, void *);
typedef void (*Kernel4Dim)(void *, void *, void *, void *, void *,
                           const int64_t *);

static int check(void *library, const char *name, int rows, int n, int k,
                 enum ScaleA scaleA, int dynamic) {
  void *symbol = dlsym(library, name);
  if (!symbol) {
    printf("%s: missing\n", name);
    return 1;
  }
  int kBlocks = (k + BLOCK - 1) / BLOCK, nBlocks = (n + BLOCK - 1) / BLOCK;
  int aScales = scaleA == PER_GROUP ? kBlocks : 1;
  uint8_t *a = malloc((size_t)rows * k), *b = malloc((size_t)n * k);
  float *sa = malloc(sizeof(float) * rows * aScales);
  float *sb = malloc(sizeof(float) * nBlocks * kBlocks);
  float *out = malloc(sizeof(float) * rows * n);
  for (long i = 0; i < (long)rows * k; ++i)
    a[i] = randomCode();
  for (long i = 0; i < (long)n * k; ++i)
    b[i] = randomCode();
  for (int i = 0; i < rows * aScales; ++i)
    sa[i] = randomScale();
  for (int i = 0; i < nBlocks * kBlocks; ++i)
    sb[i] = randomScale();
  if (dynamic) {
    int64_t dim = rows;
    ((Kernel4Dim)symbol)(a, b, sa, sb, out, &dim);
  } else {
    ((Kernel4)symbol)(a, b, sa, sb, out);
  }
  double worst = 0.0;
  int bad = 0;
  for (int m = 0; m < rows; ++m) {
    for (int j = 0; j < n; ++j) {
      double want = 0.0, magnitude = 0.0;
      for (int kb = 0; kb < kBlocks; ++kb) {
        double partial = 0.0, partialMagnitude = 0.0;
        for (int kk = kb * BLOCK; kk < k && kk < (kb + 1) * BLOCK; ++kk) {
          double term =
              decodeE4m3(a[(long)m * k + kk]) * decodeE4m3(b[(long)j * k + kk]);
          partial += term;
          partialMagnitude += fabs(term);
        }
        double scale = (scaleA == PER_GROUP ? sa[m * kBlocks + kb] : 1.0) *
                       sb[(j / BLOCK) * kBlocks + kb];
        want += partial * scale;
        magnitude += partialMagnitude * scale;
      }
      if (scaleA == PER_TOKEN) {
        want *= sa[m];
        magnitude *= sa[m];
      }
      double error = fabs(out[(long)m * n + j] - want);
      double bound = k * ldexp(magnitude, -22) + 1e-30;
      if (error / bound > worst)
        worst = error / bound;
      if (error > bound && bad++ < 4)
        printf("%s: [%d][%d] gave %.9g, want %.9g\n", name, m, j,
               out[(long)m * n + j], want);
    }
  }
  if (dynamic)
    printf("%s at M = %d: ", name, rows);
  else
    printf("%s: ", name);
  printf("%d elements, worst error %.3g of the bound, within bound: %s\n",
         rows * n, worst, bad ? "no" : "yes");
  free(a), free(b), free(sa), free(sb), free(out);
  return bad != 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s kernels.so seed\n", argv[0]);
    return 2;
  }
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  state = strtoull(argv[2], NULL, 10);
  printf("seed %s\n", argv[2]);
  int failures = 0;
  failures +=
      check(library, "groups_and_blocks_matmul_0", 7, 200, 300, PER_GROUP, 0);
  failures +=
      check(library, "batched_rows_matmul_0", 10, 257, 260, PER_GROUP, 0);
  failures +=
      check(library, "token_and_blocks_matmul_0", 33, 64, 200, PER_TOKEN, 0);
  failures += check(library, "dynamic_m_matmul_0", 5, 200, 136, PER_GROUP, 1);
  failures += check(library, "dynamic_m_matmul_0", 131, 200, 136, PER_GROUP, 1);
  return failures != 0;
}
