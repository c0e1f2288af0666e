"""Distributed FFTs of Debian's mpi4py-fft (python3-mpi4py-fft, on mpi4py
and so on Open MPI): each case transforms a random array forward and back
over the ranks, whose pencil transposes are MPI_Alltoallw over subarray
types (mpi4py_fft/pencil.py). Each rank writes, to ARGV[1].RANK, a digest
of its part of each result, and the round trip's error: a preloaded run
must write the plain run's lines (test/mpi4py-fft.sh).

numpy's backend, whose transforms give the same bits every run (FFTW's
measured plans need not)."""
import hashlib
import sys
import warnings

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray

# its numpy backend plans on arrays not yet written, which numpy warns of
warnings.filterwarnings("ignore", category=RuntimeWarning)

comm = MPI.COMM_WORLD
rank = comm.Get_rank()

# shape, type, axes transformed (None: all, last first), process grid (0:
# the ranks' choice; None: mpi4py-fft's)
CASES = [
    ((32, 24, 20), np.complex128, None, None),
    ((16, 18, 20), np.float64, None, None),
    ((24, 16, 12), np.complex64, (2, 0, 1), None),
    ((20, 22, 8, 6), np.float32, None, None),
    ((30, 40), np.complex128, None, None),
    ((12, 14, 16), np.float64, None, [1, 0, 1]),
    ((17, 9, 11), np.complex128, (1, 2), None),
    ((10, 12, 14), np.float64, None, [0, 1, 1]),
]


def digest(x):
    return hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()[:16]


lines = []
for i, (shape, dtype, axes, grid) in enumerate(CASES):
    kw = {} if grid is None else {"grid": grid}
    fft = PFFT(comm, shape, axes=axes, dtype=dtype, backend="numpy", **kw)
    u = newDistArray(fft, False)
    rng = np.random.default_rng(1000 * i + rank)
    a = rng.standard_normal(u.shape)
    if np.iscomplexobj(u):
        a = a + 1j * rng.standard_normal(u.shape)
    u[:] = a
    u_hat = fft.forward(u)
    back = fft.backward(u_hat)
    err = float(np.max(np.abs(back - u)))
    lines.append("case %d %s %s forward %s backward %s round trip %s %s"
                 % (i, "x".join(map(str, shape)), np.dtype(dtype).name,
                    digest(u_hat), digest(back), "ok" if err < 1e-4 else "off",
                    digest(u)))
    fft.destroy()

with open("%s.%d" % (sys.argv[1], rank), "w") as f:
    f.write("\n".join(lines) + "\n")
