/*===- HostDynamicKernelFixture.c - a dynamic host kernel for the tests ---===*
 *
 * Built into a shared library that HostBackendTest loads through the host
 * backend, with the CPU ABI of a dynamic kernel (docs/dynamic-shapes.md,
 * section 4): bare pointers to dense row-major buffers, inputs first, then a
 * pointer to the value of the dynamic dim.
 *
 *===----------------------------------------------------------------------===*/

#include <stdint.h>

enum { Cols = 4 };

/* out[M,4] = 2 * in[M,4] + the row index, for the M `dim` points to. */
void twice_plus_row_f32(const float *in, float *out, const int64_t *dim) {
  for (int64_t i = 0; i < *dim; ++i)
    for (int j = 0; j < Cols; ++j)
      out[i * Cols + j] = 2 * in[i * Cols + j] + (float)i;
}
