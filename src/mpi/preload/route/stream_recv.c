/* The receiving side of a pipeline-mode stream (pipeline.c says the wire
 * and who calls what): where each chunk lands, the chunk receives, and
 * delivery into the user's buffer. */
#include <pthread.h>
#include <stdlib.h>
#include "stream.h"
#include "../../../../actions/actions.h"   /* dli_memcpy */

/* chunk k lands in the user's buffer if the data is dense and a whole
   chunk fits there, else in a slot */
static char *landing(const dlp_pipe *p, size_t k)
{
  size_t off = k * p->C;
  if (p->d.dense && off <= p->n && p->C <= p->n - off)
    return p->d.base + off;
  return p->slots[p->d.dense ? 0 : k % 2];
}

/* where the first receive lands: where a whole message would (dense data
   in the user's buffer, the user's data through MPICH where the plan hands
   it the blocks or the type, else the staging buffer); sets p->placed and
   p->land */
bool dlp_stream_recv_placed(const dlp_pipe *p)
{
  return (p->first == DLP_R_BLOCKS && p->blocks != MPI_DATATYPE_NULL) ||
         p->first == DLP_R_MPICH;
}

/* where the bytes a receive shorter than a chunk cannot hold land (a
   stream's first chunk must be taken whole to be known as one: routes.c),
   and the rest of a truncated stream, received and dropped (a drain: a
   receive of no bytes from its second chunk on). Never read. */
static char *sink;
static pthread_once_t sink_once = PTHREAD_ONCE_INIT;

static void sink_alloc(void)
{
  sink = malloc(dlp_chunk());
}

char *dlp_stream_sink(void)
{
  pthread_once(&sink_once, sink_alloc);
  return sink;
}

static bool is_short(const dlp_pipe *p)
{
  return !p->d.dense && !dlp_stream_recv_placed(p) && p->n < p->C;
}

/* the first receive takes a whole message as well as a first chunk */
static int post_first(dlp_pipe *p)
{
  p->placed = dlp_stream_recv_placed(p) || p->d.dense;
  p->land = dlp_stream_recv_placed(p) ? p->d.buf : p->d.dense ? p->d.base : p->stage;
  if (p->first == DLP_R_MPICH)
    return dlp_irecv_as(p->d.buf, p->d.count, p->d.dt, p->peer, p->tag, p->comm, &p->rreq);
  if (dlp_stream_recv_placed(p))
    return dlp_irecv_as(p->d.buf, 1, p->blocks, p->peer, p->tag, p->comm, &p->rreq);
  if (p->d.dense)
    return dlp_irecv_as(p->land, (MPI_Count)p->n, MPI_PACKED, p->peer, p->tag, p->comm,
                        &p->rreq);
  /* data that is not dense holds two bytes or more: no room type only
     when out of memory, and the staging buffer must not be overrun */
  dlp_room room;
  if (!dlp_room_post(p->land, p->n, &room))
    return dlp_raise(p->comm, MPI_ERR_NO_MEM);
  p->gap = room.gap;
  int rc = dlp_irecv_as(room.buf, room.count, room.dt, p->peer, p->tag, p->comm, &p->rreq);
  dlp_room_posted(&room);
  return rc;
}

int dlp_stream_recv_post(dlp_pipe *p)
{
  if (p->k == 0)
    return post_first(p);
  p->land = landing(p, p->k);
  return dlp_irecv_as(p->land, (MPI_Count)p->C, MPI_PACKED, p->peer, p->tag, p->comm,
                      &p->rreq);
}

/* chunk k (got bytes at land) into the buffer, as far as it holds */
static void deliver(dlp_pipe *p, size_t k, const char *land, size_t got)
{
  size_t off = k * p->C;
  size_t fit = off < p->n ? dlp_min_size(got, p->n - off) : 0;
  if (fit < got)
    p->truncated = true;        /* the rest of the stream is drained */
  bool in_place = k == 0 ? p->placed : land == p->d.base + off;
  if (fit > 0 && !in_place) {
    if (p->d.dense) {
      dli_memcpy(p->d.base + off, land, fit);
    } else {
      size_t last = off + fit;
      dl_segment_unpack(p->seg, off, &last, land);
    }
  }
  p->got += got;
  p->delivered += fit;
}

/* a receive that may take this stream's chunks is pending (a documented
   constraint of the mode; only traced) */
static void check_hazard(const dlp_pipe *p)
{
  for (const dlp_pipe *q = p->next; q; q = q->next)
    if (!q->send && q->comm == p->comm && q->k == 0 &&
        (q->peer == p->peer || q->peer == MPI_ANY_SOURCE) &&
        (q->tag == p->tag || q->tag == MPI_ANY_TAG))
      DLP_TRACE("warning: a pending receive may take chunks of a stream from %d, "
                "tag %d", p->peer, p->tag);
}

static void first_chunk(dlp_pipe *p, const MPI_Status *st)
{
  p->peer = st->MPI_SOURCE;     /* the rest comes from there */
  p->tag = st->MPI_TAG;
  if (dlp_cfg()->trace && dlp_status_bytes(st) == p->C)
    check_hazard(p);
}

/* a receive of the stream completed with status st: the chunk is
   delivered, the next one posted unless the stream ended */
void dlp_stream_recv_arrived(dlp_pipe *p, const MPI_Status *st)
{
  if (p->k == 0) {
    int c = 0;
    if (PMPI_Test_cancelled(st, &c) == MPI_SUCCESS && c) {
      p->cancelled = p->finished = true;
      return;
    }
    first_chunk(p, st);
  }
  size_t got = dlp_status_bytes(st), k = p->k;
  char *land = p->land;
  if (k == 0 && p->gap)
    dlp_room_close(land, p->n, got);
  bool more = got == p->C;
  /* receive the next chunk while this one is unpacked, unless it would
     land on this one */
  bool ahead = more && landing(p, k + 1) != land;
  int rc;
  p->k++;
  if (ahead && (rc = dlp_stream_recv_post(p))) {
    dlp_pipe_fail(p, rc, true);
    more = false;
  }
  deliver(p, k, land, got);
  if (more && !ahead && (rc = dlp_stream_recv_post(p))) {
    dlp_pipe_fail(p, rc, true);
    more = false;
  }
  if (!more)
    p->finished = true;
}

void dlp_stream_recv_advance(dlp_pipe *p)
{
  while (!p->finished) {
    int flag = 0;
    MPI_Status st;
    int rc = dlp_next()->test(&p->rreq, &flag, &st);
    if (rc != MPI_SUCCESS) {
      dlp_pipe_fail(p, rc, true);
      p->finished = true;
      return;
    }
    if (!flag)
      return;
    dlp_stream_recv_arrived(p, &st);
  }
}

/* one kept staging buffer per receive (no large allocation per message):
   the first receive lands at its start unless it is placed, and the chunk
   slots are its first 2C bytes (C for dense data, whose chunks land in the
   user's buffer while they fit), reused once that receive is delivered. A
   receive shorter than a chunk (a drain) stages its own bytes only: every
   chunk after the first lies past its end and lands in the sink. */
bool dlp_stream_recv_buffers(dlp_pipe *p)
{
  if (is_short(p)) {
    p->stage = dlp_room_get(p->n);
    p->slots[0] = p->slots[1] = dlp_stream_sink();
    return p->stage && p->slots[0];
  }
  size_t two = 2 * p->C;     /* C is at most 1 GiB (config.c) */
  bool placed = dlp_stream_recv_placed(p);
  size_t cap = p->d.dense ? p->C : placed || p->n < two ? two : p->n;
  p->stage = dlp_room_get(cap);
  if (!p->stage)
    return false;
  p->slots[0] = p->stage;
  p->slots[1] = p->d.dense ? p->stage : (char *)p->stage + p->C;
  return true;
}
