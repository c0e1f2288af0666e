/* A user buffer as the interposer sees it, and the staging buffers that
 * carry derived-type data as the native packed stream.
 *
 * Staging buffers of 64 KiB and more are kept for reuse, four at most: a
 * large malloc is an mmap whose pages fault in, zeroed, on first touch and
 * go back to the kernel on free, which for a 32 MiB message cost twice as
 * much as packing it. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include "base.h"
#include "host.h"

#define KEEP 4
#define KEEP_MIN ((size_t)64 << 10)
#define KEEP_MAX ((size_t)256 << 20)
#define HEAD 64                    /* the capacity, and alignment */

static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;
static char *kept[KEEP];

static size_t cap_of(const char *buf)
{
  return *(const size_t *)(buf - HEAD);
}

void *dlp_stage_get(size_t n)
{
  if (n >= KEEP_MIN) {
    char *best = NULL;
    int at = -1;
    pthread_mutex_lock(&keep_lock);
    for (int i = 0; i < KEEP; i++)
      if (kept[i] && cap_of(kept[i]) >= n && (!best || cap_of(kept[i]) < cap_of(best))) {
        best = kept[i];
        at = i;
      }
    if (best)
      kept[at] = NULL;
    pthread_mutex_unlock(&keep_lock);
    if (best)
      return best;
  }
  char *p = malloc(HEAD + (n ? n : 1));
  if (!p)
    return NULL;
  *(size_t *)p = n;
  return p + HEAD;
}

static void join_finalize(void)
{
  dlp_at_finalize(DLP_FIN_STAGING, dlp_stage_flush);
}

void dlp_stage_put(void *buf)
{
  if (!buf)
    return;
  char *b = buf;
  size_t cap = cap_of(b);
  if (cap >= KEEP_MIN && cap <= KEEP_MAX) {
    pthread_mutex_lock(&keep_lock);
    int at = -1;
    for (int i = 0; i < KEEP && at < 0; i++)   /* a free slot */
      if (!kept[i])
        at = i;
    if (at < 0) {                      /* else replace the smallest, if smaller */
      at = 0;
      for (int i = 1; i < KEEP; i++)
        if (cap_of(kept[i]) < cap_of(kept[at]))
          at = i;
      if (cap_of(kept[at]) >= cap)
        at = -1;
    }
    if (at >= 0) {
      char *old = kept[at];
      kept[at] = b;
      b = old;
    }
    pthread_mutex_unlock(&keep_lock);
    static pthread_once_t joined = PTHREAD_ONCE_INIT;
    pthread_once(&joined, join_finalize);   /* freed at MPI_Finalize */
  }
  if (b)
    free(b - HEAD);
}

void dlp_stage_flush(void)
{
  pthread_mutex_lock(&keep_lock);
  for (int i = 0; i < KEEP; i++) {
    if (kept[i])
      free(kept[i] - HEAD);
    kept[i] = NULL;
  }
  pthread_mutex_unlock(&keep_lock);
}

int dlp_data_get(const void *buf, MPI_Count count, MPI_Datatype dt, dlp_data *d)
{
  /* field by field: a compound literal zeroes the whole struct first
     (rep stos: a fifth of a small MPI_Pack's time) */
  d->buf = (void *)buf;
  d->count = count;
  d->dt = dt;
  d->t = NULL;
  d->bytes = 0;
  d->named = d->dense = false;
  d->base = NULL;
  d->engine_ok = true;
  d->fanout = d->unit = 0;
  d->basic = dt;
  if (dt == MPI_DATATYPE_NULL || count < 0)
    return DLP_PASS;
  d->t = dli_named_type(dt);
  d->named = d->t != NULL;
  if (!d->named) {
    dli_mpi_info info;
    int rc = dli_type_from_mpi_info(dt, &d->t, &info);
    if (rc == DL_ERR_ARG)        /* not a datatype MPI knows */
      return DLP_PASS;
    if (rc)
      return dlp_class_of(rc);
    d->engine_ok = !(info.props & DLI_MPI_ENGINE_WRONG);
    d->fanout = info.fanout;
    d->unit = info.unit;
    d->basic = info.basic;
  }
  int dense;
  dl_aint off;
  int rc = dl_pack_size(count, d->t, &d->bytes);
  if (!rc)
    rc = dl_type_dense(count, d->t, &dense, &off);
  if (rc)
    return dlp_class_of(rc);
  d->dense = dense;
  /* integer arithmetic: buf may be MPI_BOTTOM and off an absolute address */
  d->base = (char *)((uintptr_t)buf + (uintptr_t)off);
  return MPI_SUCCESS;
}

int dlp_stage_out(const dlp_data *d, void **stage)
{
  *stage = dlp_stage_get(d->bytes);
  if (!*stage)
    return MPI_ERR_NO_MEM;
  size_t pos = 0;
  int rc = dl_pack(d->buf, d->count, d->t, *stage, d->bytes, &pos);
  if (rc) {
    dlp_stage_put(*stage);
    *stage = NULL;
    return dlp_class_of(rc);
  }
  return MPI_SUCCESS;
}

void dlp_stage_in(const dlp_data *d, const void *stage, size_t n)
{
  size_t pos = 0;
  /* fewer bytes than the type holds is a normal short receive: the
     truncation code only says that, and what arrived is unpacked */
  dl_unpack(stage, n < d->bytes ? n : d->bytes, &pos, d->buf, d->count, d->t);
}

/* ---- staging receives ---- */

static bool gapped(void)
{
  return dlp_host_has(DLP_DEV_TRUNCATE_OVERRUNS);
}

void *dlp_room_get(size_t n)
{
  return dlp_stage_get(gapped() ? n + 1 : n);
}

/* the room's last byte lands one past its place, so the host sees two
   blocks: a type the host treats as contiguous (a single block, resized
   or not) is overrun all the same */
bool dlp_room_post(void *stage, size_t n, dlp_room *r)
{
  *r = (dlp_room){stage, (MPI_Count)n, MPI_PACKED, false};
  if (!gapped())
    return true;
  if (n < 2 || n - 1 > INT_MAX)
    return false;
  int len[2] = {(int)(n - 1), 1};
  MPI_Aint at[2] = {0, (MPI_Aint)n};
  MPI_Datatype t;
  if (PMPI_Type_create_hindexed(2, len, at, MPI_BYTE, &t) != MPI_SUCCESS)
    return false;
  if (PMPI_Type_commit(&t) != MPI_SUCCESS) {
    PMPI_Type_free(&t);
    return false;
  }
  r->count = 1;
  r->dt = t;
  r->gap = true;
  return true;
}

void dlp_room_posted(dlp_room *r)
{
  if (r->dt != MPI_PACKED)
    PMPI_Type_free(&r->dt);
  r->dt = MPI_PACKED;
}

void dlp_room_close(void *stage, size_t n, size_t got)
{
  if (got >= n)     /* a longer message: its first n bytes (truncated) */
    ((char *)stage)[n - 1] = ((char *)stage)[n];
}

size_t dlp_status_bytes(const MPI_Status *st)
{
  MPI_Count n = 0;
  if (PMPI_Get_count_c(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
    return 0;
  return (size_t)n;
}

int dlp_host_judges(const void *buf, MPI_Datatype dt, MPI_Comm comm)
{
  char none;
  int p = 0;
  return PMPI_Pack(buf, 0, dt, &none, 1, &p, comm);
}
