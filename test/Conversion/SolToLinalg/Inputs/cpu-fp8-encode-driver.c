// Calls the casts of cpu-fp8-encode.mlir (f32 to e4m3fn and to e5m2, as
// sol.cast defines them: round to nearest, ties to the even code, past the
// largest finite value saturating to it with its sign, NaN to NaN) on
// every value that can round wrong: each finite code's value, the midpoint
// of every two neighbouring codes and the f32 values either side of it, past
// the largest code (its midpoint to the next power, 1e30, infinity), f32
// subnormals, zeros of both signs and NaN, both signs throughout; then
// random f32 bit patterns (a fresh seed each run, printed; a second
// argument replays one). Each result is compared with this file's
// rounding: the nearest of the kind's finite codes by brute force (written
// from the formats' definitions, sharing no code with
// sol-expand-fp8-conversions or runtime/Fp8.h).
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 4096 };

typedef struct {
  const char *kernel;
  int exponentBits, mantissaBits, bias, ieee;
} Kind;

static double decode(const Kind *k, uint8_t code) {
  int sign = code >> 7;
  int exponent = (code >> k->mantissaBits) & ((1 << k->exponentBits) - 1);
  int mantissa = code & ((1 << k->mantissaBits) - 1);
  int top = (1 << k->exponentBits) - 1;
  double value;
  if (k->ieee && exponent == top)
    value = mantissa ? NAN : INFINITY;
  else if (!k->ieee && exponent == top &&
           mantissa == (1 << k->mantissaBits) - 1)
    value = NAN;
  else if (exponent == 0)
    value = ldexp(mantissa, 1 - k->bias - k->mantissaBits);
  else
    value = ldexp((1 << k->mantissaBits) | mantissa,
                  exponent - k->bias - k->mantissaBits);
  return sign ? -value : value;
}

/// The code sol.cast gives `x`: the nearest finite code of x's sign, the
/// even one of two equally near, the largest beyond it; NaN for NaN.
static double expected(const Kind *k, float x) {
  if (isnan(x))
    return NAN;
  double magnitude = fabs((double)x), best = 0, bestDistance = INFINITY;
  for (int code = 0; code < 128; ++code) {
    double value = decode(k, (uint8_t)code);
    if (!isfinite(value))
      continue;
    // At or past the largest finite value, that value (saturation: far out,
    // the distances to the last codes are equal in double).
    if (magnitude >= value) {
      best = value;
      bestDistance = magnitude - value;
      continue;
    }
    double distance = value - magnitude;
    if (distance < bestDistance ||
        (distance == bestDistance && code % 2 == 0)) {
      bestDistance = distance;
      best = value;
    }
  }
  return signbit(x) ? -best : best;
}

typedef void (*Kernel)(void *, void *);

static float inputs[1 << 22];
static int count;

static void add(float x) {
  if (count < (int)(sizeof(inputs) / sizeof(inputs[0]))) {
    inputs[count++] = x;
    inputs[count++] = -x;
  }
}

static uint32_t seed;

static int check(void *library, const Kind *k) {
  Kernel kernel = (Kernel)dlsym(library, k->kernel);
  if (!kernel) {
    printf("%s: missing\n", k->kernel);
    return 1;
  }
  count = 0;
  double largest = 0;
  for (int code = 0; code < 128; ++code) {
    double value = decode(k, (uint8_t)code);
    double next = decode(k, (uint8_t)(code + 1));
    if (!isfinite(value))
      continue;
    largest = value;
    add((float)value);
    if (code + 1 < 128 && isfinite(next)) {
      float mid = (float)((value + next) / 2);
      add(mid);
      add(nextafterf(mid, 0));
      add(nextafterf(mid, INFINITY));
    }
  }
  // Past the largest code: to where the next binade's first value would be
  // and beyond; subnormal f32s; NaN.
  double beyond = ldexp(1.0, (int)floor(log2(largest)) + 1);
  add((float)((largest + beyond) / 2));
  add(nextafterf((float)largest, INFINITY));
  add((float)beyond);
  add(1e30f);
  add(INFINITY);
  add(1e-40f);
  add(0.0f);
  add(NAN);
  uint32_t state = seed;
  while (count + 2 <= (int)(sizeof(inputs) / sizeof(inputs[0])) &&
         count < 1 << 20) {
    state = state * 1664525u + 1013904223u;
    uint32_t bits = state;
    float x;
    memcpy(&x, &bits, sizeof(x));
    add(x);
  }
  static uint8_t out[N];
  int mismatches = 0;
  for (int start = 0; start < count; start += N) {
    static float chunk[N];
    memset(chunk, 0, sizeof(chunk));
    int n = count - start < N ? count - start : N;
    memcpy(chunk, inputs + start, n * sizeof(float));
    kernel(chunk, out);
    for (int i = 0; i < n; ++i) {
      double want = expected(k, chunk[i]);
      double got = decode(k, out[i]);
      int same = isnan(want) ? isnan(got)
                             : (got == want && signbit(got) == signbit(want));
      if (!same && mismatches++ < 4)
        printf("%s: %a gave code 0x%02x (%g), want %g\n", k->kernel,
               chunk[i], out[i], got, want);
    }
  }
  printf("%s: %d values, mismatches %d\n", k->kernel, count, mismatches);
  return mismatches != 0;
}

int main(int argc, char **argv) {
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    printf("cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  // Fresh random values each run; the seed is printed to replay one.
  FILE *urandom = fopen("/dev/urandom", "rb");
  if (!urandom || fread(&seed, sizeof(seed), 1, urandom) != 1)
    seed = (uint32_t)time(NULL);
  if (urandom)
    fclose(urandom);
  if (argc > 2)
    seed = (uint32_t)strtoul(argv[2], NULL, 10);
  printf("seed %u\n", seed);
  Kind e4m3 = {"e4m3_cast_0", 4, 3, 7, 0};
  Kind e5m2 = {"e5m2_cast_0", 5, 2, 15, 1};
  int failed = check(library, &e4m3);
  failed |= check(library, &e5m2);
  return failed;
}
