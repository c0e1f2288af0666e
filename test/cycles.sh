#!/bin/sh
# The interposer's files call one another one way: no cycle of calls among
# src/mpi/preload/*.c (a file that calls a function another defines
# depends on it; parts that must be called back join a registry instead,
# as MPI_Finalize's steps and the persistent requests' hooks do). Read
# from the objects' symbol tables: each file's defined and undefined
# symbols. Fails naming the files of every cycle.
b=${top_builddir:-.}
dir=$b/src/mpi/preload/.libs
ls "$dir"/libdataloop_preload_core_la-*.o >/dev/null 2>&1 || dir=$b/src/mpi/preload
ls "$dir"/libdataloop_preload_core_la-*.o >/dev/null 2>&1 ||
  { echo "no objects of the interposer in $dir" >&2; exit 77; }
for o in "$dir"/libdataloop_preload_core_la-*.o; do
  f=${o##*la-}
  nm "$o" | awk -v f="${f%.o}" 'NF == 3 && $2 ~ /^[TDBR]$/ {print "D", f, $3}
                                 NF == 2 && $1 == "U" {print "U", f, $2}'
done | awk '
  $1 == "D" { def[$3] = $2; files[$2] = 1 }
  $1 == "U" { use[++nu] = $2 " " $3; files[$2] = 1 }
  END {
    n = 0
    for (f in files) name[++n] = f
    for (i = 1; i <= n; i++) idx[name[i]] = i
    for (k = 1; k <= nu; k++) {
      split(use[k], p, " ")
      if ((p[2] in def) && def[p[2]] != p[1]) r[idx[p[1]], idx[def[p[2]]]] = 1
    }
    edges = 0
    for (e in r) edges++
    for (k = 1; k <= n; k++)
      for (i = 1; i <= n; i++)
        if (r[i, k])
          for (j = 1; j <= n; j++)
            if (r[k, j]) r[i, j] = 1
    bad = 0
    for (i = 1; i <= n; i++)
      if (r[i, i] && !shown[i]) {
        line = name[i]
        for (j = 1; j <= n; j++)
          if (j != i && r[i, j] && r[j, i]) {
            line = line " " name[j]
            shown[j] = 1
          }
        print "a call cycle among: " line > "/dev/stderr"
        bad = 1
      }
    printf "%d files, %d calls between files, %s\n", n, edges, bad ? "cycles" : "no cycle"
    exit bad
  }'
