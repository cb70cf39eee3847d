// A sparse-LU-like factorisation with `depend`: a block-tridiagonal matrix of NB x NB blocks
// (only the diagonal and its two neighbours are stored, as in a banded sparse LU), factorised
// block by block. Step k: lu0 factors the diagonal block, fwd and bdiv update its right and lower
// neighbours (in parallel), bmod updates the next diagonal block, which the next lu0 needs. The
// chain lu0 -> fwd|bdiv -> bmod -> lu0 ... is the whole factorisation: work 4 blocks per step,
// critical path 3, so at 2 threads the dependences bound the speedup at 4/3
// (dependency_bound). Arguments: blocks (48), block size (96).
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int BS;

static void lu0(double* d) {
  for (int k = 0; k < BS; ++k)
    for (int i = k + 1; i < BS; ++i) {
      d[i * BS + k] /= d[k * BS + k];
      for (int j = k + 1; j < BS; ++j) d[i * BS + j] -= d[i * BS + k] * d[k * BS + j];
    }
}

static void fwd(const double* d, double* c) {
  for (int k = 0; k < BS; ++k)
    for (int i = k + 1; i < BS; ++i)
      for (int j = 0; j < BS; ++j) c[i * BS + j] -= d[i * BS + k] * c[k * BS + j];
}

static void bdiv(const double* d, double* r) {
  for (int i = 0; i < BS; ++i)
    for (int k = 0; k < BS; ++k) {
      r[i * BS + k] /= d[k * BS + k];
      for (int j = k + 1; j < BS; ++j) r[i * BS + j] -= r[i * BS + k] * d[k * BS + j];
    }
}

static void bmod(const double* row, const double* col, double* inner) {
  for (int i = 0; i < BS; ++i)
    for (int k = 0; k < BS; ++k) {
      const double a = row[i * BS + k];
      for (int j = 0; j < BS; ++j) inner[i * BS + j] -= a * col[k * BS + j] * 1e-3;
    }
}

int main(int argc, char** argv) {
  const int nb = argc > 1 ? atoi(argv[1]) : 48;
  BS = argc > 2 ? atoi(argv[2]) : 96;
  const size_t block = (size_t)BS * BS;
  // diag[k], upper[k] (k, k+1), lower[k] (k+1, k)
  double* diag = malloc(sizeof(double) * block * nb);
  double* upper = malloc(sizeof(double) * block * nb);
  double* lower = malloc(sizeof(double) * block * nb);
  for (size_t i = 0; i < block * nb; ++i) {
    diag[i] = (i % (BS + 1) == 0) ? 4.0 * BS : 0.5 + (double)(i % 7) * 0.01;
    upper[i] = 0.25 + (double)(i % 5) * 0.01;
    lower[i] = 0.25 + (double)(i % 3) * 0.01;
  }
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < nb; ++k) {
      double* d = diag + block * k;
      double* u = upper + block * k;
      double* l = lower + block * k;
#pragma omp task depend(inout: d[0])
      lu0(d);
      if (k + 1 < nb) {
#pragma omp task depend(in: d[0]) depend(inout: u[0])
        fwd(d, u);
#pragma omp task depend(in: d[0]) depend(inout: l[0])
        bdiv(d, l);
        double* next = diag + block * (k + 1);
#pragma omp task depend(in: l[0], u[0]) depend(inout: next[0])
        bmod(l, u, next);
      }
    }
  }
  double sum = 0;
  for (size_t i = 0; i < block * nb; i += 97) sum += diag[i];
  printf("checksum=%.6e\n", sum);
  free(diag);
  free(upper);
  free(lower);
  return 0;
}
