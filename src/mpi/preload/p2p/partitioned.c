/* Partitioned point-to-point requests: MPI_Psend_init, MPI_Precv_init,
 * and MPI_Pready, MPI_Pready_range, MPI_Pready_list under both their
 * names (MPICH's Fortran 2008 bindings call the PMPI_ ones).
 *
 * Partition i of (buf, partitions, count, datatype) is count elements at
 * buf + i * count * extent, so the whole is the message (buf, partitions *
 * count, datatype), and MPICH moves it as such: its wire is that message's
 * packed bytes, which a rank preloaded or not receives alike. The route of
 * one partition's data is chosen once, at _init, for a derived type that
 * is not dense (plan.c):
 *
 *   PACK    (sends) the request is made over a staging buffer of
 *           partitions packed partitions; MPI_Pready packs its partitions
 *           there before MPICH's MPI_Pready marks them ready, so a
 *           partition is read when the program says it is ready, not
 *           before
 *   BLOCKS  the request is made over the partition's blocks (an hindexed
 *           type of bytes, resized to a partition's extent): MPICH moves
 *           them where they lie, nothing of the interposer at MPI_Pready
 *           or MPI_Parrived
 *   MPICH   the program's arguments, unchanged
 *
 * A receive never packs (MPI_Parrived and every completion call would have
 * to unpack): dlp_choose_unstaged. MPICH judges the arguments first, but
 * not with MPI_Psend_init itself, which tells the receiver at once: with
 * MPI_Send_init (MPI_Recv_init) of one partition's data, freed unstarted;
 * its error stands. Partition numbers MPICH would reject are not packed.
 * MPI_PROC_NULL, intercommunicators, predefined and dense data go to MPICH
 * as made. Each start of a routed request counts as a send or receive of
 * the interposer's; the record lives and dies with the handle
 * (dlp_persist_attach). */
#include <stdlib.h>
#include "p2p.h"

#if MPI_VERSION >= 4   /* a host of MPI 3.1 (Open MPI 4.1) has none */

typedef struct part {
  dlp_data d;            /* partition 0's data; d.t held (PACK) */
  MPI_Aint stride;       /* count * extent: partition i's data at + i * stride */
  int partitions;
  MPI_Comm comm;         /* errors of MPI_Pready go to its handler */
  char *stage;           /* PACK: the packed partitions, d.bytes each */
  MPI_Datatype type;     /* BLOCKS: a partition's blocks */
} part;

static void part_free(void *arg)
{
  part *p = arg;
  if (p->d.t)
    dl_type_free(&p->d.t);
  if (p->type != MPI_DATATYPE_NULL)
    PMPI_Type_free(&p->type);
  free(p->stage);
  free(p);
}

static int make(bool recv, const void *buf, int partitions, MPI_Count count,
                MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Info info,
                MPI_Request *req)
{
  return recv ? PMPI_Precv_init((void *)buf, partitions, count, dt, peer, tag, comm, info, req)
              : PMPI_Psend_init(buf, partitions, count, dt, peer, tag, comm, info, req);
}

/* MPICH's judgment of one partition's arguments: MPI_SUCCESS, or its
   error (raised through comm's handler) */
static int judge(bool recv, const void *buf, MPI_Count count, MPI_Datatype dt, int peer,
                 int tag, MPI_Comm comm)
{
  MPI_Request q = MPI_REQUEST_NULL;
  int rc = recv ? dlp_recv_init_as((void *)buf, count, dt, peer, tag, comm, &q)
                : dlp_send_init_as(buf, count, dt, peer, tag, comm, DLP_STANDARD, &q);
  if (rc == MPI_SUCCESS && q != MPI_REQUEST_NULL)
    dlp_next()->request_free(&q);
  return rc;
}

/* the partitioned request, routed; DLP_PASS where MPICH takes the
   program's arguments */
static int routed(bool recv, const void *buf, int partitions, MPI_Count count,
                  MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Info info,
                  MPI_Request *req)
{
  dlp_data d;
  int inter = 1;
  MPI_Aint lb, ext, stride;
  if (!req || partitions <= 0 || count <= 0 || peer == MPI_PROC_NULL ||
      dlp_data_get(buf, count, dt, &d) != MPI_SUCCESS || dlp_straight(&d))
    return DLP_PASS;
  int rc = judge(recv, buf, count, dt, peer, tag, comm);
  if (rc != MPI_SUCCESS)
    return rc;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
      PMPI_Type_get_extent(dt, &lb, &ext) != MPI_SUCCESS ||
      __builtin_mul_overflow((MPI_Aint)count, ext, &stride))
    return DLP_PASS;
  size_t all;
  if (__builtin_mul_overflow(d.bytes, (size_t)partitions, &all))
    return DLP_PASS;
  part *p = calloc(1, sizeof *p);
  if (!p)
    return DLP_PASS;
  *p = (part){.stride = stride, .partitions = partitions, .comm = comm,
              .type = MPI_DATATYPE_NULL};
  dlp_choice c = {.route = DLP_R_MPICH, .blocks = MPI_DATATYPE_NULL};
  if (recv)
    dlp_choose_unstaged(&d, &c);
  else
    dlp_choose(&d, false, false, &c);
  MPI_Request mine = MPI_REQUEST_NULL;
  rc = DLP_PASS;
  if (c.route == DLP_R_PACK && !recv && (p->stage = malloc(all)) &&
      dl_type_retain(d.t) == DL_OK) {
    p->d = d;
    rc = make(false, p->stage, partitions, (MPI_Count)d.bytes, MPI_PACKED, peer, tag, comm,
              info, &mine);
  } else if (c.route == DLP_R_BLOCKS && c.blocks != MPI_DATATYPE_NULL &&
             PMPI_Type_create_resized(c.blocks, 0, stride, &p->type) == MPI_SUCCESS &&
             PMPI_Type_commit(&p->type) == MPI_SUCCESS) {
    p->d = d;
    p->d.t = NULL;
    rc = make(recv, buf, partitions, 1, p->type, peer, tag, comm, info, &mine);
  } else {
    c.route = DLP_R_MPICH;
  }
  dlp_choice_done(&c, recv, false);
  if (rc == MPI_SUCCESS && mine != MPI_REQUEST_NULL) {
    *req = mine;
    dlp_persist_attach(mine, recv, c.route, p, part_free);
  } else {
    part_free(p);
  }
  return rc;
}

static int init_common(bool recv, const void *buf, int partitions, MPI_Count count,
                       MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Info info,
                       MPI_Request *req)
{
  int rc = routed(recv, buf, partitions, count, dt, peer, tag, comm, info, req);
  if (rc == DLP_PASS)
    rc = make(recv, buf, partitions, count, dt, peer, tag, comm, info, req);
  return rc;
}

int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  return init_common(false, buf, partitions, count, datatype, dest, tag, comm, info,
                     request);
}

int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  return init_common(true, buf, partitions, count, datatype, source, tag, comm, info,
                     request);
}

/* ---- MPI_Pready ---- */

/* the packing send of h, or NULL */
static part *packing(MPI_Request h)
{
  part *p = h != MPI_REQUEST_NULL ? dlp_persist_arg(h) : NULL;
  return p && p->stage ? p : NULL;
}

/* partition i of p packed into its place in the staging */
static int pack_one(const part *p, int i)
{
  if (i < 0 || i >= p->partitions)
    return MPI_SUCCESS;   /* MPICH's to reject */
  size_t pos = 0;
  dlp_detail_clear();
  int rc = dl_pack((const char *)p->d.buf + (MPI_Aint)i * p->stride, p->d.count, p->d.t,
                   p->stage + (size_t)i * p->d.bytes, p->d.bytes, &pos);
  return rc ? dlp_raise_dl(p->comm, "MPI_Pready", dlp_class_of(rc), rc) : MPI_SUCCESS;
}

static int pready(int partition, MPI_Request request)
{
  part *p = packing(request);
  int rc = p ? pack_one(p, partition) : MPI_SUCCESS;
  return rc ? rc : dlp_next()->pready(partition, request);
}

static int pready_range(int low, int high, MPI_Request request)
{
  part *p = packing(request);
  int rc = MPI_SUCCESS;
  /* a range MPICH rejects is not packed at all */
  if (p && low >= 0 && high < p->partitions)
    for (int i = low; i <= high && rc == MPI_SUCCESS; i++)
      rc = pack_one(p, i);
  return rc ? rc : dlp_next()->pready_range(low, high, request);
}

static int pready_list(int length, int partitions[], MPI_Request request)
{
  part *p = packing(request);
  int rc = MPI_SUCCESS;
  for (int i = 0; p && partitions && i < length && rc == MPI_SUCCESS; i++)
    rc = pack_one(p, partitions[i]);
  return rc ? rc : dlp_next()->pready_list(length, partitions, request);
}

int MPI_Pready(int partition, MPI_Request request) { return pready(partition, request); }
int PMPI_Pready(int partition, MPI_Request request) { return pready(partition, request); }
int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
  return pready_range(partition_low, partition_high, request);
}
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
  return pready_range(partition_low, partition_high, request);
}
int MPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
  return pready_list(length, array_of_partitions, request);
}
int PMPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
  return pready_list(length, array_of_partitions, request);
}
#endif
