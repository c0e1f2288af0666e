"""One run of bench/mpi4py-fft.sh: the pencil transposes of Debian's
mpi4py-fft (MPI_Alltoallw over subarray types) of each pattern, timed on
their own (the forward transform's transfers, between its 1D FFTs) and
as part of a forward and backward transform. Prints, from rank 0, one
line per pattern: name, transposes' ms and transform's ms, each the
median over ROUNDS rounds of the slowest rank's mean per call.

    mpiexec -n 2 python3 bench/fft_transposes.py ROUNDS"""
import sys
import time
import warnings

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray

# its numpy backend plans on arrays not yet written, which numpy warns of
warnings.filterwarnings("ignore", category=RuntimeWarning)

comm = MPI.COMM_WORLD
rounds = int(sys.argv[1])
PATTERNS = [("3D 128^3 complex", (128, 128, 128), np.complex128),
            ("3D 128^3 real", (128, 128, 128), np.float64),
            ("3D 96^3 single complex", (96, 96, 96), np.complex64),
            ("2D 2048^2 complex", (2048, 2048), np.complex128)]


def slowest(f, calls):
    comm.Barrier()
    t0 = time.perf_counter()
    for _ in range(calls):
        f()
    return comm.allreduce((time.perf_counter() - t0) / calls, op=MPI.MAX)


for name, shape, dtype in PATTERNS:
    fft = PFFT(comm, shape, dtype=dtype, backend="numpy")
    u = newDistArray(fft, False)
    u[:] = np.random.default_rng(comm.rank).standard_normal(u.shape)
    u_hat = newDistArray(fft, True)
    fwd = fft.forward
    # the forward's transposes: each moves one stage's output to the next's
    # input (mpi4py-fft's private attributes, as Debian 12's 2.0.4 names
    # them: another version may not, and the run then fails, not lies)
    steps = list(zip(fwd._transfer, fwd._xfftn[:-1], fwd._xfftn[1:]))

    def transposes():
        for move, a, b in steps:
            move(a.output_array, b.input_array)

    def transform():
        fft.forward(u, u_hat)
        fft.backward(u_hat, u)

    transform()                # planned, touched, its types made
    tt, tf = [], []
    for _ in range(rounds):
        tt.append(slowest(transposes, 10))
        tf.append(slowest(transform, 3))
    if comm.rank == 0:
        print("%s|%.4f|%.4f" % (name, np.median(tt) * 1e3, np.median(tf) * 1e3))
    fft.destroy()
