// Calls the fp8 kernels of cpu-fp8-decode.mlir with every code: row i of A
// holds code i in its first element and zeros after it, B's first row is
// the e4m3 code of 1.0 then zeros, so out[i][0] is the kernel's f32 value of
// code i exactly (one product with 1.0, then zeros). It is compared by
// value (NaN for NaN; -0 sums to +0) with this file's decoding, written from the
// formats' definitions (OCP fp8: e4m3fn bias 7, no infinity, S.1111.111
// NaN; e5m2 bias 15, IEEE infinities and NaNs) and sharing no code with
// sol-expand-fp8-conversions.
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { K = 16, N = 8, CODES = 256 };

static double decode(uint8_t code, int exponentBits, int mantissaBits,
                     int bias, int ieee) {
  int sign = code >> 7;
  int exponent = (code >> mantissaBits) & ((1 << exponentBits) - 1);
  int mantissa = code & ((1 << mantissaBits) - 1);
  int top = (1 << exponentBits) - 1;
  double value;
  if (ieee && exponent == top)
    value = mantissa ? NAN : INFINITY;
  else if (!ieee && exponent == top && mantissa == (1 << mantissaBits) - 1)
    value = NAN;
  else if (exponent == 0)
    value = ldexp(mantissa, 1 - bias - mantissaBits);
  else
    value = ldexp((1 << mantissaBits) | mantissa,
                  exponent - bias - mantissaBits);
  return sign ? -value : value;
}

typedef void (*Kernel)(void *, void *, void *);

static int check(void *library, const char *name, int exponentBits,
                 int mantissaBits, int bias, int ieee) {
  Kernel kernel = (Kernel)dlsym(library, name);
  if (!kernel) {
    printf("%s: missing\n", name);
    return 1;
  }
  static uint8_t a[CODES * K], b[N * K];
  static float out[CODES * N];
  memset(a, 0, sizeof(a));
  memset(b, 0, sizeof(b));
  for (int i = 0; i < CODES; ++i)
    a[i * K] = (uint8_t)i;
  b[0] = 0x38; // e4m3fn 1.0
  kernel(a, b, out);
  int mismatches = 0;
  for (int i = 0; i < CODES; ++i) {
    double want = decode((uint8_t)i, exponentBits, mantissaBits, bias, ieee);
    float got = out[i * N];
    int same = isnan(want) ? isnan(got) : (double)got == want;
    if (!same && mismatches++ < 4)
      printf("%s: code 0x%02x gave %g, want %g\n", name, i, got, want);
  }
  printf("%s: %d codes, mismatches %d\n", name, CODES, mismatches);
  return mismatches != 0;
}

int main(int argc, char **argv) {
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    printf("cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  int failed = check(library, "e4m3_matmul_0", 4, 3, 7, 0);
  failed |= check(library, "e5m2_matmul_0", 5, 2, 15, 1);
  return failed;
}
