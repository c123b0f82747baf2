// Driver of cpu-dynamic-numerics.mlir: dlopens the kernels.so that
// scripts/build-cpu-kernels.sh built from that module and calls each dynamic
// kernel at many M through the CPU ABI of docs/dynamic-shapes.md, section 4:
//
//   void kernel(void *in..., void *out..., const int64_t *dim);
//
// Inputs are fresh random data (seed printed; SOL_SEED=<n> replays a run).
// Every output element is compared with a float64 reference computed here
// from the same (rounded) inputs, within one ulp of the output type plus a
// small absolute slack for f32 accumulation near zero; the rows past M of
// each output buffer hold a sentinel that must survive the call.
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

//===-- f16 / bf16 <-> float ---------------------------------------------===//

static float bitsToFloat(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t floatToBits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0)
    v = ldexp(man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = ldexp(man | 0x400, exp - 25);
  return sign ? -v : v;
}

// Round to nearest even; inputs here are small normal numbers.
static uint16_t doubleToHalf(double v) {
  uint16_t sign = v < 0 ? 0x8000 : 0;
  v = fabs(v);
  if (v == 0)
    return sign;
  int e;
  frexp(v, &e); // v = f * 2^e, f in [0.5, 1)
  int exp = e - 1 + 15;
  if (exp <= 0) // subnormal: units of 2^-24
    return sign | (uint16_t)nearbyint(ldexp(v, 24));
  double man = nearbyint(ldexp(v, 11 - e)); // 11 significant bits
  if (man >= 2048) {
    man /= 2;
    ++exp;
  }
  if (exp >= 31)
    return sign | 0x7c00;
  return sign | (uint16_t)(exp << 10) | ((uint16_t)man & 0x3ff);
}

static double bf16ToDouble(uint16_t b) {
  return bitsToFloat((uint32_t)b << 16);
}

static uint16_t doubleToBf16(double v) {
  uint32_t u = floatToBits((float)v);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

//===-- random buffers ---------------------------------------------------===//

static uint64_t rngState;

static double uniform(double lo, double hi) {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return lo + (hi - lo) * (double)(rngState >> 11) / 9007199254740992.0;
}

enum DType { F16, BF16, F32 };

// A buffer of `n` elements: the bytes the kernel sees and their values.
typedef struct {
  enum DType type;
  size_t n;
  void *bytes;
  double *values;
} Buffer;

static size_t elementSize(enum DType t) { return t == F32 ? 4 : 2; }

static double decode(enum DType t, const void *bytes, size_t i) {
  if (t == F32)
    return ((const float *)bytes)[i];
  uint16_t h = ((const uint16_t *)bytes)[i];
  return t == F16 ? halfToDouble(h) : bf16ToDouble(h);
}

static void encode(enum DType t, void *bytes, size_t i, double v) {
  if (t == F32)
    ((float *)bytes)[i] = (float)v;
  else
    ((uint16_t *)bytes)[i] = t == F16 ? doubleToHalf(v) : doubleToBf16(v);
}

static Buffer randomBuffer(enum DType t, size_t n, double lo, double hi) {
  Buffer b = {t, n, malloc(n * elementSize(t) + 1),
              malloc(n * sizeof(double) + 1)};
  for (size_t i = 0; i < n; ++i) {
    encode(t, b.bytes, i, uniform(lo, hi));
    b.values[i] = decode(t, b.bytes, i);
  }
  return b;
}

// An output of `n` elements followed by `guard` sentinel elements.
static const unsigned char kSentinel = 0xa5;

static Buffer outputBuffer(enum DType t, size_t n, size_t guard) {
  size_t bytes = (n + guard) * elementSize(t);
  Buffer b = {t, n, malloc(bytes + 1), NULL};
  memset(b.bytes, kSentinel, bytes);
  return b;
}

static void freeBuffer(Buffer *b) {
  free(b->bytes);
  free(b->values);
}

//===-- checks -----------------------------------------------------------===//

static double ulpOf(enum DType t) {
  return t == F16 ? ldexp(1, -10) : t == BF16 ? ldexp(1, -7) : ldexp(1, -22);
}

// Compares `out` with `ref`; reports the first mismatch. The guard past the
// output must hold the sentinel.
static int check(const char *kernel, long m, const Buffer *out,
                 const double *ref, size_t guard) {
  double worst = 0;
  for (size_t i = 0; i < out->n; ++i) {
    double got = decode(out->type, out->bytes, i);
    double err = fabs(got - ref[i]);
    double bound = ulpOf(out->type) * fabs(ref[i]) + 1e-4;
    if (!(err <= bound)) {
      printf("%s: M=%ld element %zu: got %.8g, expected %.8g (bound %.3g)\n",
             kernel, m, i, got, ref[i], bound);
      return 0;
    }
    if (err / bound > worst)
      worst = err / bound;
  }
  const unsigned char *tail =
      (const unsigned char *)out->bytes + out->n * elementSize(out->type);
  for (size_t i = 0; i < guard * elementSize(out->type); ++i)
    if (tail[i] != kSentinel) {
      printf("%s: M=%ld wrote past its %zu output elements\n", kernel, m,
             out->n);
      return 0;
    }
  return 1;
}

//===-- kernels ----------------------------------------------------------===//

typedef void (*Kernel3)(void *, void *, void *, void *, const int64_t *);
typedef void (*Kernel4)(void *, void *, void *, void *, void *,
                        const int64_t *);
typedef void (*Kernel3x2)(void *, void *, void *, void *, void *,
                          const int64_t *);
typedef void (*Static1)(void *, void *);

enum { K = 64, N = 64 };

static double geluTanh(double x) {
  return 0.5 * x *
         (1 +
          tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
}

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

// x[rows, K] @ w[N, K]^T + r[rows, N] at M = m: the rows of the dynamic
// dim's `perDim` rows each (1: an [M, K] A; 3: a [M, 3, K] one).
static int checkOproj(void *fn, const char *name, long m, long perDim) {
  long rows = m * perDim;
  Buffer x = randomBuffer(F16, rows * K, -1, 1),
         w = randomBuffer(F16, N * K, -1, 1),
         r = randomBuffer(F16, rows * N, -1, 1),
         o = outputBuffer(F16, rows * N, perDim * N);
  double *ref = malloc(rows * N * sizeof(double) + 1);
  for (long i = 0; i < rows; ++i)
    for (int n = 0; n < N; ++n) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += x.values[i * K + k] * w.values[n * K + k];
      ref[i * N + n] = acc + r.values[i * N + n];
    }
  int64_t dim = m;
  ((Kernel3)fn)(x.bytes, w.bytes, r.bytes, o.bytes, &dim);
  int ok = check(name, m, &o, ref, perDim * N);
  freeBuffer(&x), freeBuffer(&w), freeBuffer(&r), freeBuffer(&o), free(ref);
  return ok;
}

static int runOproj(void *fn, long m) {
  return checkOproj(fn, "oproj_residual", m, 1);
}

static int runMlp(void *fn, long m) {
  Buffer x = randomBuffer(F16, m * K, -1, 1),
         w = randomBuffer(F16, K * N, -1, 1), b = randomBuffer(F16, N, -1, 1),
         s = randomBuffer(F16, m, -2, 2), o = outputBuffer(F16, m * N, N);
  double *ref = malloc(m * N * sizeof(double) + 1);
  for (long i = 0; i < m; ++i)
    for (int n = 0; n < N; ++n) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += x.values[i * K + k] * w.values[k * N + n];
      ref[i * N + n] = geluTanh(acc + b.values[n]) * s.values[i];
    }
  int64_t dim = m;
  ((Kernel4)fn)(x.bytes, w.bytes, b.bytes, s.bytes, o.bytes, &dim);
  int ok = check("mlp_gelu_scale", m, &o, ref, N);
  freeBuffer(&x), freeBuffer(&w), freeBuffer(&b), freeBuffer(&s),
      freeBuffer(&o), free(ref);
  return ok;
}

static int runSwiglu(void *fn, long m) {
  Buffer x = randomBuffer(F16, m * K, -1, 1),
         g = randomBuffer(F16, N * K, -1, 1),
         u = randomBuffer(F16, N * K, -1, 1), o = outputBuffer(F16, m * N, N);
  double *ref = malloc(m * N * sizeof(double) + 1);
  for (long i = 0; i < m; ++i)
    for (int n = 0; n < N; ++n) {
      double gate = 0, up = 0;
      for (int k = 0; k < K; ++k) {
        gate += x.values[i * K + k] * g.values[n * K + k];
        up += x.values[i * K + k] * u.values[n * K + k];
      }
      ref[i * N + n] = gate * sigmoid(gate) * up;
    }
  int64_t dim = m;
  ((Kernel3)fn)(x.bytes, g.bytes, u.bytes, o.bytes, &dim);
  int ok = check("swiglu_pair", m, &o, ref, N);
  freeBuffer(&x), freeBuffer(&g), freeBuffer(&u), freeBuffer(&o), free(ref);
  return ok;
}

static int runChain(void *fn, long m) {
  enum { S = 4, H = 16 };
  size_t n = m * S * H;
  Buffer x = randomBuffer(BF16, n, -3, 3), b = randomBuffer(BF16, H, -1, 1),
         y = randomBuffer(BF16, n, -2, 2), z = outputBuffer(BF16, n, S * H),
         t = outputBuffer(BF16, n, S * H);
  double *refZ = malloc(n * sizeof(double) + 1);
  double *refT = malloc(n * sizeof(double) + 1);
  for (size_t i = 0; i < n; ++i) {
    // The kernel keeps z in f32 until it writes it: t reads the unrounded z.
    double zi = sigmoid(x.values[i] + b.values[i % H]) * y.values[i];
    refZ[i] = zi;
    refT[i] = tanh(zi) - exp(-y.values[i]);
  }
  int64_t dim = m;
  ((Kernel3x2)fn)(x.bytes, b.bytes, y.bytes, z.bytes, t.bytes, &dim);
  int ok = check("elementwise_chain", m, &z, refZ, S * H) &&
           check("elementwise_chain", m, &t, refT, S * H);
  freeBuffer(&x), freeBuffer(&b), freeBuffer(&y), freeBuffer(&z),
      freeBuffer(&t), free(refZ), free(refT);
  return ok;
}

// The dynamic dim is a batch of 3 rows each: the rows are M * 3.
static int runBatched(void *fn, long m) {
  return checkOproj(fn, "batched_oproj", m, 3);
}

static int runStaticNeg(void *fn) {
  Buffer x = randomBuffer(F32, 64, -1, 1), o = outputBuffer(F32, 64, 0);
  double ref[64];
  for (int i = 0; i < 64; ++i)
    ref[i] = -x.values[i];
  ((Static1)fn)(x.bytes, o.bytes);
  int ok = check("static_neg", 0, &o, ref, 0);
  freeBuffer(&x), freeBuffer(&o);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s kernels.so\n", argv[0]);
    return 2;
  }
  const char *seedText = getenv("SOL_SEED");
  uint64_t seed = seedText ? strtoull(seedText, NULL, 10)
                           : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
  rngState = seed;
  printf("seed %llu\n", (unsigned long long)seed);

  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    printf("cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  static const long dims[] = {0, 1, 2, 7, 16, 17, 64, 127, 129, 1000};
  struct {
    const char *name;
    int (*run)(void *, long);
  } cases[] = {{"oproj_residual", runOproj},
               {"mlp_gelu_scale", runMlp},
               {"swiglu_pair", runSwiglu},
               {"elementwise_chain", runChain},
               {"batched_oproj", runBatched}};
  int failures = 0;
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    void *fn = dlsym(library, cases[c].name);
    if (!fn) {
      printf("%s: not in the library\n", cases[c].name);
      ++failures;
      continue;
    }
    int ok = 1;
    for (size_t d = 0; d < sizeof(dims) / sizeof(dims[0]) && ok; ++d)
      ok = cases[c].run(fn, dims[d]);
    if (ok) {
      printf("%s: M=", cases[c].name);
      for (size_t d = 0; d < sizeof(dims) / sizeof(dims[0]); ++d)
        printf("%s%ld", d ? "," : "", dims[d]);
      printf(" ok\n");
    } else {
      ++failures;
    }
  }
  void *staticNeg = dlsym(library, "static_neg");
  if (staticNeg && runStaticNeg(staticNeg))
    printf("static_neg: ok\n");
  else
    ++failures;
  if (failures)
    printf("%d kernels failed\n", failures);
  else
    printf("all passed\n");
  return failures != 0;
}
