# Derived datatypes through Debian's mpi4py (built on Open MPI), on 2
# ranks: point-to-point calls of every kind, packing, collectives and
# one-sided operations of vector, struct, subarray, indexed and resized
# types, and calls of bad arguments. Each line written is a result's
# digest or an error's class, in an order that does not depend on timing,
# to OUT.RANK (derived.py OUT; without OUT, to the standard output, where
# the launcher may interleave the ranks' lines); test/mpi4py.sh runs this
# plainly (Open MPI's answers: the oracle) and with the interposer
# preloaded, and requires the same lines.
import array
import hashlib
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
if comm.Get_size() != 2:
    sys.exit("derived.py: run on 2 ranks")
peer = 1 - rank
lines = []


def say(what, data):
    """a result: its bytes' digest, on this rank's list"""
    lines.append("%d %s %s" % (rank, what, hashlib.sha1(bytes(data)).hexdigest()[:16]))


def say_error(what, call):
    """a call that must fail: its error class (or that it succeeded)"""
    try:
        call()
        lines.append("%d %s succeeded" % (rank, what))
    except MPI.Exception as e:
        lines.append("%d %s class %d" % (rank, what, e.Get_error_class()))


def doubles(n, seed):
    return array.array("d", [seed * 1000.0 + i + 0.25 for i in range(n)])


def blank(n):
    return array.array("d", [-1.0] * n)


vec = MPI.DOUBLE.Create_vector(100, 3, 7).Commit()                  # 700 doubles
big = MPI.DOUBLE.Create_vector(40000, 1, 2).Commit()                 # past a chunk
sub = MPI.DOUBLE.Create_subarray([20, 30], [8, 10], [3, 5]).Commit()  # 600 doubles
idx = MPI.DOUBLE.Create_indexed([2, 1, 4], [0, 5, 11]).Commit()      # 15 doubles
res = MPI.DOUBLE.Create_vector(2, 2, 3).Create_resized(0, 48)       # 6 doubles
res.Commit()
st = MPI.Datatype.Create_struct([1, 2, 1], [0, 8, 32], [MPI.INT, MPI.DOUBLE, MPI.SHORT])
st = st.Create_resized(0, 40)
st.Commit()
kinds = [("vector", vec, 700), ("subarray", sub, 600), ("indexed", idx, 15),
         ("resized", res, 12), ("struct", st, 10)]

# blocking, synchronous, nonblocking and persistent sends into every
# receive kind, for each type
for name, t, n in kinds:
    for k, mode in enumerate(["send", "ssend", "isend", "persistent"]):
        tag = 10 * k
        if rank == 0:
            a = doubles(n, k)
            count = 2 if name in ("resized", "struct") else 1
            if mode == "send":
                comm.Send([a, count, t], 1, tag)
            elif mode == "ssend":
                comm.Ssend([a, count, t], 1, tag)
            elif mode == "isend":
                comm.Isend([a, count, t], 1, tag).Wait()
            else:
                r = comm.Send_init([a, count, t], 1, tag)
                r.Start()
                r.Wait()
                r.Free()
        else:
            b = blank(n)
            count = 2 if name in ("resized", "struct") else 1
            s = MPI.Status()
            if mode == "send":
                comm.Recv([b, count, t], 0, tag, s)
            elif mode == "ssend":
                msg = comm.Mprobe(0, tag)
                msg.Recv([b, count, t], s)
            elif mode == "isend":
                comm.Irecv([b, count, t], 0, tag).Wait(s)
            else:
                comm.Probe(0, tag, s)
                r = comm.Recv_init([b, count, t], 0, tag)
                r.Start()
                r.Wait(s)
                r.Free()
            say("%s %s" % (name, mode), b)
            lines.append("%d %s %s count %d elements %d" % (
                rank, name, mode, s.Get_count(t), s.Get_elements(MPI.DOUBLE)))

# a message of a pipeline chunk or more, both ways at once
a, b = doubles(80000, 5 + rank), blank(80000)
comm.Sendrecv([a, 1, big], peer, 50, [b, 1, big], peer, 50)
say("sendrecv long", b)
a = doubles(600, 7 + rank)
comm.Sendrecv_replace([a, 1, sub], peer, 51, peer, 51)
say("sendrecv_replace subarray", a)

# a receive too short for its message: the truncation, and what landed
if rank == 0:
    comm.Send([doubles(700, 8), 1, vec], 1, 52)
else:
    b = blank(700)
    say_error("truncated recv", lambda: comm.Recv([b, 1, idx], 0, 52))

# packing, native and external32, and back (mpi4py counts the copies of
# the type that the buffer holds: its length over the extent)
for name, t, n in kinds:
    a = doubles(n, 9)
    count = 2 if name in ("resized", "struct") else 1
    size = t.Pack_size(count, comm)
    out = bytearray(size)
    pos = t.Pack(a, out, 0, comm)
    say("pack %s %d" % (name, pos), out[:pos])
    b = blank(n)
    t.Unpack(out, 0, b, comm)
    say("unpack %s" % name, b)
    xsize = t.Pack_external_size("external32", count)
    xout = bytearray(xsize)
    xpos = t.Pack_external("external32", a, xout, 0)
    say("pack_external %s %d" % (name, xpos), xout[:xpos])
    b = blank(n)
    t.Unpack_external("external32", xout, 0, b)
    say("unpack_external %s" % name, b)

# collectives of derived types
a = doubles(700, 10 + rank)
comm.Bcast([a, 1, vec], root=0)
say("bcast vector", a)
# (collectives' signatures must agree: counts per process, as mpi4py has them)
b = blank(2 * 80)
comm.Allgather([doubles(600, 11 + rank), 1, sub], [b, 80, MPI.DOUBLE])
say("allgather subarray", b)
b = blank(2 * 8)
comm.Gather([doubles(15, 12 + rank), 1, idx], [b, 8, MPI.DOUBLE] if rank == 0 else None,
            root=0)
if rank == 0:
    say("gather indexed", b)
b = blank(700)
comm.Scatter([doubles(2 * 300, 13), 300, MPI.DOUBLE] if rank == 1 else None, [b, 1, vec],
             root=1)
say("scatter vector", b)
b = blank(2 * 4)
comm.Alltoall([doubles(24, 14 + rank), 1, res], [b, 4, MPI.DOUBLE])
say("alltoall resized", b)

# one-sided: puts, gets and accumulates of derived types at both ends,
# in fence and lock epochs, on a created and an allocated window
for how in ["create", "allocate"]:
    if how == "create":
        mem = blank(700)
        win = MPI.Win.Create(mem, 8, comm=comm)
    else:
        win = MPI.Win.Allocate(700 * 8, 8, comm=comm)
        mem = memoryview(win.tomemory()).cast("B").cast("d")
        for i in range(700):
            mem[i] = -1.0
    comm.Barrier()
    win.Fence()
    win.Put([doubles(700, 20 + rank), 1, vec], peer, [0, 1, vec])
    win.Fence()
    say("put %s" % how, mem)
    got = blank(600)
    win.Fence()
    win.Get([got, 1, sub], peer, [0, 1, sub])
    win.Fence()
    say("get %s" % how, got)
    win.Lock(peer)
    win.Accumulate([doubles(15, 21), 1, idx], peer, [0, 1, idx], MPI.SUM)
    win.Unlock(peer)
    comm.Barrier()
    win.Lock(rank)
    say("accumulate %s" % how, mem)
    win.Unlock(rank)
    comm.Barrier()
    win.Free()

# bad arguments: the error class the host gives
unc = MPI.DOUBLE.Create_vector(3, 1, 2)
say_error("send of an uncommitted type", lambda: comm.Send([doubles(6, 0), 1, unc], peer, 60))
unc.Free()
say_error("recv of tag -5", lambda: comm.Recv([blank(700), 1, vec], peer, -5))
say_error("send to rank 5", lambda: comm.Send([doubles(700, 0), 1, vec], 5, 62))
say_error("pack into 16 bytes", lambda: vec.Pack(doubles(700, 0), bytearray(16), 0, comm))
say_error("unpack from 16 bytes", lambda: vec.Unpack(bytearray(16), 0, blank(700), comm))
say_error("pack_external to \"bogus\"",
          lambda: vec.Pack_external("bogus", doubles(700, 0), bytearray(2400), 0))

comm.Barrier()
for t in [vec, big, sub, idx, res, st]:
    t.Free()
if len(sys.argv) > 1:
    with open("%s.%d" % (sys.argv[1], rank), "w") as f:
        f.write("".join(l + "\n" for l in lines))
else:
    sys.stdout.write("".join(l + "\n" for l in lines))
