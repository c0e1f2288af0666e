/* The pipeline mode's streams (pipeline.c), shared with the receiving
 * side (stream_recv.c): one record per stream operation. Only these two
 * files include this header. */
#ifndef DLP_STREAM_H
#define DLP_STREAM_H

#include "route.h"

struct dlp_pipe {
  bool send;
  int mode;                /* DLP_STANDARD ... for the first chunk */
  MPI_Comm comm;
  int peer, tag;           /* receive: as posted, then the first chunk's */
  dlp_data d;
  int first;               /* receive: dlp_op's */
  MPI_Datatype blocks;     /* receive: dlp_op's, while starting */
  dl_segment *seg;         /* data that is not dense, chunk by chunk */
  size_t C;                /* chunk bytes */
  size_t n;                /* send: message bytes; receive: capacity */
  /* send */
  size_t nchunks, posted, retired;
  size_t window, slot;     /* chunks in flight; bytes per ring slot */
  MPI_Request *reqs;       /* window entries */
  char *ring;              /* window * slot, for packed chunks (staged) */
  char *rest;              /* flushed: the packed chunks not yet sent */
  /* receive */
  MPI_Request rreq;        /* the chunk receive in flight */
  size_t k;                /* its chunk number */
  char *land;              /* where it lands */
  char *slots[2];          /* in stage: the first receive's bytes are */
  void *stage;             /* delivered before a chunk lands there */
  bool placed;             /* the first receive lands in the user's data */
  bool gap;                /* the first receive's last byte lands one past
                              its place (dlp_room_post) */
  size_t got, delivered;   /* bytes received; bytes placed in the buffer */
  bool truncated;
  /* both */
  int err;                 /* first error */
  bool err_raised;         /* MPICH raised it already */
  bool cancelled, finished;
  bool detached;           /* a drain nobody waits for: no request */
  bool lent;               /* its next request is in a waiter's hands */
  MPI_Request greq;
  dlp_pipe *prev, *next;   /* the active list, in starting order */
};

static inline void dlp_pipe_fail(dlp_pipe *p, int err, bool raised)
{
  if (!p->err) {
    p->err = err;
    p->err_raised = raised;
  }
}

static inline size_t dlp_min_size(size_t a, size_t b) { return a < b ? a : b; }

/* the receiving side (stream_recv.c); the caller holds the streams' lock */
bool dlp_stream_recv_buffers(dlp_pipe *p);        /* at creation */
bool dlp_stream_recv_placed(const dlp_pipe *p);   /* first receive in the user's data */
int dlp_stream_recv_post(dlp_pipe *p);            /* the next receive */
void dlp_stream_recv_arrived(dlp_pipe *p, const MPI_Status *st);
void dlp_stream_recv_advance(dlp_pipe *p);

#endif
