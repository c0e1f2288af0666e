#!/bin/sh
# Every shared library of the project exports dl_* symbols only; the PMPI
# interposer (and its Open MPI build, with Fortran entry points) exports the MPI_* functions it intercepts, the PMPI_* names
# it defines over MPICH's (every call that can see a request: complete.c,
# persist.c) and its introspection
# calls (dl_preload_active, dl_preload_counts, dl_preload_routes,
# dl_preload_route_name, dl_preload_rma_routes),
# nothing else (everything else it holds, the engine included, is local).
libs=$(find "${top_builddir:-.}/.libs" -name 'libdataloop*.so.*.*' -type f 2>/dev/null)
if [ -z "$libs" ]; then
  echo "no shared library built (configured with --disable-shared?)" >&2
  exit 77
fi
defined() {
  nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVWiu]$/ {print $3}'
}
status=0
# a library's exports against the list want (sorted), named as what
exports_are() { # lib want what
  have=$(defined "$1" | sort)
  if [ "$2" != "$have" ]; then
    echo "$1 exports differ from the $3:" >&2
    echo "$2" > exports-want.tmp
    echo "$have" > exports-have.tmp
    diff exports-want.tmp exports-have.tmp >&2
    rm -f exports-want.tmp exports-have.tmp
    status=1
  fi
  echo "$1: $(echo "$have" | wc -l) symbols, as $3"
}
for lib in $libs; do
  bad=$(defined "$lib" | grep -v '^dl_' || true)
  if [ -n "$bad" ]; then
    echo "$lib exports symbols without the dl_ prefix:" >&2
    echo "$bad" >&2
    status=1
  fi
  n=$(nm -D --defined-only "$lib" | grep -c ' T dl_')
  echo "$lib: $n dl_ functions"
done
lib=$(echo "$libs" | grep '/libdataloop\.so' | head -n 1)
for f in dl_strerror dl_type_commit dl_type_free; do
  nm -D --defined-only "$lib" | grep -q " T $f\$" || { echo "$f not exported" >&2; status=1; }
done

pre="${top_builddir:-.}/.libs/libdataloop-mpi-preload.so"
if [ -f "$pre" ]; then
  intercepted="MPI_Pack MPI_Pack_c MPI_Unpack MPI_Unpack_c MPI_Pack_size
    MPI_Pack_size_c MPI_Send MPI_Send_c MPI_Recv MPI_Recv_c MPI_Isend MPI_Isend_c
    MPI_Irecv MPI_Irecv_c MPI_Sendrecv MPI_Sendrecv_c MPI_Ssend MPI_Ssend_c
    MPI_Issend MPI_Issend_c MPI_Rsend MPI_Rsend_c MPI_Bsend MPI_Bsend_c
    MPI_Irsend MPI_Irsend_c MPI_Ibsend MPI_Ibsend_c MPI_Sendrecv_replace
    MPI_Sendrecv_replace_c MPI_Comm_free MPI_Wait
    MPI_Waitall MPI_Waitany MPI_Waitsome MPI_Test MPI_Testall MPI_Testany
    MPI_Testsome MPI_Request_free MPI_Cancel MPI_Request_get_status
    MPI_Pack_external MPI_Pack_external_c
    MPI_Unpack_external MPI_Unpack_external_c MPI_Pack_external_size
    MPI_Pack_external_size_c MPI_Finalize MPI_Abort MPI_Probe MPI_Iprobe MPI_Mprobe
    MPI_Improbe MPI_Mrecv MPI_Mrecv_c MPI_Imrecv MPI_Imrecv_c MPI_Error_class
    MPI_Put MPI_Put_c MPI_Get MPI_Get_c MPI_Accumulate MPI_Accumulate_c
    MPI_Get_accumulate MPI_Get_accumulate_c MPI_Rput MPI_Rput_c MPI_Rget MPI_Rget_c
    MPI_Raccumulate MPI_Raccumulate_c MPI_Rget_accumulate MPI_Rget_accumulate_c
    MPI_Win_create MPI_Win_create_c MPI_Win_allocate MPI_Win_allocate_c
    MPI_Win_allocate_shared MPI_Win_allocate_shared_c MPI_Win_create_dynamic
    MPI_Win_fence MPI_Win_complete MPI_Win_unlock MPI_Win_unlock_all MPI_Win_flush
    MPI_Win_flush_all MPI_Win_flush_local MPI_Win_flush_local_all MPI_Win_free
    MPI_Win_start MPI_Win_post MPI_Win_lock MPI_Win_lock_all MPI_Win_get_attr
    MPI_Win_shared_query MPI_Win_get_info MPI_Send_init MPI_Send_init_c
    MPI_Ssend_init MPI_Ssend_init_c MPI_Rsend_init MPI_Rsend_init_c MPI_Bsend_init
    MPI_Bsend_init_c MPI_Recv_init MPI_Recv_init_c MPI_Start MPI_Startall
    PMPI_Start PMPI_Startall PMPI_Request_free PMPI_Wait PMPI_Waitall PMPI_Waitany
    PMPI_Waitsome PMPI_Test PMPI_Testall PMPI_Testany PMPI_Testsome PMPI_Cancel
    PMPI_Request_get_status MPI_Bcast MPI_Bcast_c MPI_Gather MPI_Gather_c
    MPI_Gatherv MPI_Gatherv_c MPI_Scatter MPI_Scatter_c MPI_Scatterv MPI_Scatterv_c
    MPI_Allgather MPI_Allgather_c MPI_Allgatherv MPI_Allgatherv_c MPI_Alltoall
    MPI_Alltoall_c MPI_Alltoallv MPI_Alltoallv_c MPI_Alltoallw MPI_Alltoallw_c
    MPI_Neighbor_allgather MPI_Neighbor_allgather_c MPI_Neighbor_allgatherv
    MPI_Neighbor_allgatherv_c MPI_Neighbor_alltoall MPI_Neighbor_alltoall_c
    MPI_Neighbor_alltoallv MPI_Neighbor_alltoallv_c MPI_Neighbor_alltoallw
    MPI_Neighbor_alltoallw_c MPI_Ibcast MPI_Ibcast_c MPI_Igather MPI_Igather_c
    MPI_Igatherv MPI_Igatherv_c MPI_Iscatter MPI_Iscatter_c MPI_Iscatterv MPI_Iscatterv_c
    MPI_Iallgather MPI_Iallgather_c MPI_Iallgatherv MPI_Iallgatherv_c MPI_Ialltoall
    MPI_Ialltoall_c MPI_Ialltoallv MPI_Ialltoallv_c MPI_Ialltoallw MPI_Ialltoallw_c
    MPI_Ineighbor_allgather MPI_Ineighbor_allgather_c MPI_Ineighbor_allgatherv
    MPI_Ineighbor_allgatherv_c MPI_Ineighbor_alltoall MPI_Ineighbor_alltoall_c
    MPI_Ineighbor_alltoallv MPI_Ineighbor_alltoallv_c MPI_Ineighbor_alltoallw
    MPI_Ineighbor_alltoallw_c
    MPI_Bcast_init MPI_Bcast_init_c MPI_Gather_init MPI_Gather_init_c
    MPI_Gatherv_init MPI_Gatherv_init_c MPI_Scatter_init MPI_Scatter_init_c
    MPI_Scatterv_init MPI_Scatterv_init_c MPI_Allgather_init MPI_Allgather_init_c
    MPI_Allgatherv_init MPI_Allgatherv_init_c MPI_Alltoall_init MPI_Alltoall_init_c
    MPI_Alltoallv_init MPI_Alltoallv_init_c MPI_Alltoallw_init MPI_Alltoallw_init_c
    MPI_Neighbor_allgather_init MPI_Neighbor_allgather_init_c
    MPI_Neighbor_allgatherv_init MPI_Neighbor_allgatherv_init_c
    MPI_Neighbor_alltoall_init MPI_Neighbor_alltoall_init_c
    MPI_Neighbor_alltoallv_init MPI_Neighbor_alltoallv_init_c
    MPI_Neighbor_alltoallw_init MPI_Neighbor_alltoallw_init_c
    MPI_Psend_init MPI_Precv_init MPI_Pready MPI_Pready_range MPI_Pready_list
    PMPI_Pready PMPI_Pready_range PMPI_Pready_list MPI_Type_commit"
  want=$(for f in $intercepted dl_preload_active dl_preload_counts dl_preload_routes \
    dl_preload_route_name dl_preload_rma_routes; do echo "$f"; done | sort)
  exports_are "$pre" "$want" "intercepted calls"
fi

# the interposer for Open MPI: the calls it serves there, the PMPI_ names
# of the completion calls, and the Fortran entry points of the others in
# their four spellings (mpi_send_, mpi_send__, mpi_send, MPI_SEND), but
# for three window queries
pre="${top_builddir:-.}/.libs/libdataloop-mpi-preload-openmpi.so"
if [ -f "$pre" ]; then
  fortran="MPI_Send MPI_Bsend MPI_Ssend MPI_Rsend MPI_Isend MPI_Ibsend MPI_Issend
    MPI_Irsend MPI_Irecv MPI_Send_init MPI_Bsend_init MPI_Ssend_init MPI_Rsend_init
    MPI_Recv_init MPI_Recv MPI_Sendrecv MPI_Sendrecv_replace MPI_Probe MPI_Iprobe
    MPI_Mprobe MPI_Improbe MPI_Mrecv MPI_Imrecv MPI_Pack MPI_Unpack MPI_Pack_size
    MPI_Pack_external MPI_Unpack_external MPI_Pack_external_size MPI_Type_commit
    MPI_Comm_free MPI_Error_class MPI_Finalize MPI_Abort MPI_Put MPI_Get MPI_Accumulate
    MPI_Get_accumulate MPI_Rput MPI_Rget MPI_Raccumulate MPI_Rget_accumulate
    MPI_Win_create MPI_Win_allocate MPI_Win_allocate_shared MPI_Win_create_dynamic
    MPI_Win_free MPI_Win_fence MPI_Win_start MPI_Win_post MPI_Win_complete MPI_Win_lock
    MPI_Win_lock_all MPI_Win_unlock MPI_Win_unlock_all MPI_Win_flush MPI_Win_flush_all
    MPI_Win_flush_local MPI_Win_flush_local_all"
  # answered as the host's on Open MPI, whose MPI_Win_allocate windows stay
  # its own: the C names only
  c_only="MPI_Win_get_attr MPI_Win_get_info MPI_Win_shared_query"
  # the collectives, blocking and nonblocking (Open MPI 4.1 has no
  # persistent ones)
  for f in Bcast Gather Gatherv Scatter Scatterv Allgather Allgatherv Alltoall Alltoallv \
    Alltoallw Neighbor_allgather Neighbor_allgatherv Neighbor_alltoall Neighbor_alltoallv \
    Neighbor_alltoallw; do
    i=$(echo "$f" | sed 's/^./\L&/')
    fortran="$fortran MPI_$f MPI_I$i"
  done
  completion="Wait Waitall Waitany Waitsome Test Testall Testany Testsome Start
    Startall Request_free Cancel Request_get_status"
  want=$({
    for f in $fortran; do
      l=$(echo "$f" | tr 'A-Z' 'a-z')
      printf '%s\n%s_\n%s__\n%s\n%s\n' "$f" "$l" "$l" "$l" "$(echo "$f" | tr 'a-z' 'A-Z')"
    done
    for f in $completion; do printf 'MPI_%s\nPMPI_%s\n' "$f" "$f"; done
    for f in $c_only; do echo "$f"; done
    for f in dl_preload_active dl_preload_counts dl_preload_routes \
      dl_preload_route_name dl_preload_rma_routes; do echo "$f"; done
  } | sort)
  exports_are "$pre" "$want" "calls served on Open MPI"
fi
exit $status
