/*===- HostKernelFixture.c - host kernels for the runner's tests ----------===*
 *
 * Built into a shared library that RunnerTest loads through the host backend,
 * with the kernel ABI: bare pointers to dense row-major buffers, inputs first.
 *
 *===----------------------------------------------------------------------===*/

enum { Rows = 3, Cols = 5 };

/* out = a + b for 3x5 f32: the correct kernel. */
void add_f32(const float *a, const float *b, float *out) {
  for (int i = 0; i < Rows * Cols; ++i)
    out[i] = a[i] + b[i];
}

/* Same signature, but forgets the last row: the check must fail (the poisoned
 * elements stay NaN). */
void add_f32_skips_last_row(const float *a, const float *b, float *out) {
  for (int i = 0; i < (Rows - 1) * Cols; ++i)
    out[i] = a[i] + b[i];
}

/* Writes every element but computes a - b: fails on values, not on NaN. */
void add_f32_subtracts(const float *a, const float *b, float *out) {
  for (int i = 0; i < Rows * Cols; ++i)
    out[i] = a[i] - b[i];
}
