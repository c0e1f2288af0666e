/* Two processes write interleaved views of one file at the same time with
 * data sieving on: each read-modify-writes extents that cover the other's
 * bytes, so without the fcntl locks updates are lost. Every round draws
 * new block sizes (one side often too big to sieve, so direct writes must
 * lock too), sieve buffer sizes and a starting file (empty, short or
 * covering), then rank 0 checks every byte and each rank reads its part
 * back. MPI only coordinates; the I/O is dataloop's.
 *
 *   mpiexec -n 2 test/test_io_twoproc      (test/io-twoproc.sh)
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "io.h"
#include "io_case.h"

static unsigned char value(int rank, int round, size_t i)
{
  return (unsigned char)(rank * 101 + round * 7 + i * 13 + 1);
}

/* rank r's bytes: blocks of b[r] at offset (r ? b[0] : 0) of every
   b[0] + b[1], from byte 16 on */
static int view_of(int fd, int rank, const size_t b[2], dl_file_view **v)
{
  dl_type *blk, *ft;
  dl_aint at = rank ? (dl_aint)b[0] : 0;
  int rc = dl_type_hindexed(1, (dl_count[]){(dl_count)b[rank]}, &at, dl_builtin(DL_BYTE),
                            &blk);
  if (!rc)
    rc = dl_type_resized(blk, 0, (dl_aint)(b[0] + b[1]), &ft);
  if (!rc)
    rc = dl_type_commit(ft);
  if (!rc)
    rc = dl_file_view_create(fd, 16, dl_builtin(DL_BYTE), ft, v);
  dl_type_free(&blk);
  dl_type_free(&ft);
  return rc;
}

static int round_trip(int rank, int round, rng *r, const char *path)
{
  size_t b[2], blocks = (size_t)rng_range(r, 20, 300);
  for (int k = 0; k < 2; k++)
    b[k] = rng_range(r, 0, 3) ? (size_t)rng_range(r, 1, 48)
                              : (size_t)rng_range(r, 100, 3000);   /* direct */
  size_t sieve = (size_t)rng_range(r, 64, 8192), period = b[0] + b[1];
  size_t total = 16 + blocks * period;
  size_t start = (size_t)rng_range(r, 0, 2) * total / 2;   /* empty, half, all */
  if (rank == 0) {
    int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
    char *fill = malloc(start + 1);
    memset(fill, 0xee, start);
    ssize_t k = start ? pwrite(fd, fill, start, 0) : 0;
    free(fill);
    close(fd);
    if (k != (ssize_t)start)
      return 1;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int fd = open(path, O_RDWR), bad = 0;
  dl_file_view *v;
  if (fd < 0 || view_of(fd, rank, b, &v) != DL_OK)
    return 1;
  dli_io_limits l = *dli_io_defaults();
  l.sieve_read = l.sieve_write = sieve;
  l.gap_read = l.gap_write = 1 << 20;        /* sieve whatever is small */
  l.piece_max = 64;
  l.list_max = (size_t)rng_range(r, 1, 64);
  dli_file_view_set_limits(v, &l);
  size_t n = blocks * b[rank];
  unsigned char *mem = malloc(n), *back = malloc(n);
  for (size_t i = 0; i < n; i++)
    mem[i] = value(rank, round, i);
  /* in a few calls, so the two sides overlap in time often */
  size_t bytes, done = 0, step = n / 3 + 1;
  while (done < n && !bad) {
    size_t k = n - done < step ? n - done : step;
    bad = dl_file_write_at(v, (int64_t)done, mem + done, (dl_count)k,
                           dl_builtin(DL_BYTE), &bytes) != DL_OK || bytes != k;
    done += k;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (!bad)
    bad = dl_file_read_at(v, 0, back, (dl_count)n, dl_builtin(DL_BYTE), &bytes) != DL_OK ||
          bytes != n || memcmp(back, mem, n) != 0;
  if (rank == 0 && !bad) {
    /* every byte: the writer's value, the first 16 untouched */
    unsigned char *f = malloc(total);
    bad = pread(fd, f, total, 0) != (ssize_t)total;
    for (size_t i = 0; i < total && !bad; i++) {
      size_t q = i < 16 ? 0 : (i - 16) % period, blk = i < 16 ? 0 : (i - 16) / period;
      unsigned char want = i < 16 ? (i < start ? 0xee : 0)
                         : q < b[0] ? value(0, round, blk * b[0] + q)
                                    : value(1, round, blk * b[1] + q - b[0]);
      if (f[i] != want) {
        fprintf(stderr, "round %d: byte %zu is %#x, not %#x (blocks %zu, %zu; sieve "
                "%zu; file %zu of %zu)\n", round, i, f[i], want, b[0], b[1], sieve,
                start, total);
        bad = 1;
      }
    }
    free(f);
  }
  free(mem);
  free(back);
  dl_file_view_free(&v);
  close(fd);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fprintf(stderr, "run with mpiexec -n 2\n");
    MPI_Finalize();
    return 77;
  }
  char path[256];
  if (rank == 0)
    test_path(path, sizeof(path), "twoproc");
  MPI_Bcast(path, sizeof(path), MPI_CHAR, 0, MPI_COMM_WORLD);
  const char *e = getenv("DL_TEST_SEED");
  unsigned long long seed = e ? strtoull(e, NULL, 0) : (unsigned long long)time(NULL);
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0)
    fprintf(stderr, "random seed: %llu (set DL_TEST_SEED to repeat)\n", seed);
  rng r = {seed};
  int rounds = test_scaled(500), failed = 0;
  for (int round = 0; round < rounds && !failed; round++) {
    int bad = round_trip(rank, round, &r, path);
    MPI_Allreduce(&bad, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    unlink(path);
    fprintf(stderr, "%s: %d rounds of two interleaved writers\n",
            failed ? "FAILED" : "ok", rounds);
  }
  MPI_Finalize();
  return failed ? 1 : 0;
}
