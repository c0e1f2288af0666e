#!/bin/sh
# The interposer's files and folders call one another one way: no cycle of
# calls among the files of src/mpi/preload/ (a file that calls a function
# another defines depends on it; parts that must be called back join a
# registry instead, as MPI_Finalize's steps and the persistent requests'
# hooks do), and none among its folders (base/, route/, request/, p2p/,
# pack/, rma/, coll/; the files at the top, report.c, form one more).
# Read from the objects' symbol tables: each file's defined and undefined
# symbols. Fails naming the files or folders of every cycle; prints which
# folders each folder calls.
#
# The same objects tell the core's flow: the representation (dataloop/)
# and the segments (segment/) call nothing of the layers above them (the
# actions, the code generator, the tuning layer, file I/O): a type only
# counts its uses, the edge decides (doc/design.md).
b=${top_builddir:-.}
core_objs() {
  for d in "$@"; do
    if ls "$b/$d"/.libs/libdataloop_core_la-*.o >/dev/null 2>&1; then
      ls "$b/$d"/.libs/libdataloop_core_la-*.o
    else
      ls "$b/$d"/libdataloop_core_la-*.o 2>/dev/null
    fi
  done
}
below=$(core_objs dataloop segment)
above=$(core_objs actions src/codegen src/tune src/io)
if [ -n "$below" ] && [ -n "$above" ]; then
  up=$( { for o in $above; do nm "$o" | awk 'NF == 3 && $2 ~ /^[TDBR]$/ {print "D", $3}'; done
          for o in $below; do nm "$o" | awk -v f="${o##*la-}" 'NF == 2 && $1 == "U" {print "U", $2, f}'; done; } |
        awk '$1 == "D" {def[$2] = 1} $1 == "U" && ($2 in def) {print "  " $3 " calls " $2}')
  if [ -n "$up" ]; then
    echo "the representation or the segments call a layer above them:" >&2
    echo "$up" >&2
    exit 1
  fi
  echo "core: dataloop/ and segment/ call nothing above them"
fi
root=$b/src/mpi/preload
objs=""
for d in "$root" "$root"/*/; do
  d=${d%/}
  if ls "$d"/.libs/libdataloop_preload_core_la-*.o >/dev/null 2>&1; then
    objs="$objs $d/.libs/libdataloop_preload_core_la-*.o"
  elif ls "$d"/libdataloop_preload_core_la-*.o >/dev/null 2>&1; then
    objs="$objs $d/libdataloop_preload_core_la-*.o"
  fi
done
[ -n "$objs" ] || { echo "no objects of the interposer under $root" >&2; exit 77; }
# one line per symbol: D|U, folder/file
for o in $objs; do
  f=${o##*la-}
  dir=${o%/libdataloop_preload_core_la-*}
  dir=${dir%/.libs}
  folder=${dir#"$root"}
  folder=${folder#/}
  [ -n "$folder" ] || folder=top
  nm "$o" | awk -v f="$folder/${f%.o}" 'NF == 3 && $2 ~ /^[TDBR]$/ {print "D", f, $3}
                                         NF == 2 && $1 == "U" {print "U", f, $2}'
done | awk '
  # the transitive closure of r over n nodes; prints each cycle once
  function cycles(what, n, name, r,    i, j, k, line, bad, shown) {
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
        print "a call cycle among " what ": " line > "/dev/stderr"
        bad = 1
      }
    return bad
  }
  $1 == "D" { def[$3] = $2; files[$2] = 1 }
  $1 == "U" { use[++nu] = $2 " " $3; files[$2] = 1 }
  END {
    n = 0
    for (f in files) {
      name[++n] = f
      split(f, p, "/")
      if (!(p[1] in fidx)) { fname[++m] = p[1]; fidx[p[1]] = m }
    }
    for (i = 1; i <= n; i++) idx[name[i]] = i
    for (k = 1; k <= nu; k++) {
      split(use[k], p, " ")
      if ((p[2] in def) && def[p[2]] != p[1]) {
        r[idx[p[1]], idx[def[p[2]]]] = 1
        split(p[1], a, "/")
        split(def[p[2]], c, "/")
        if (a[1] != c[1]) {
          fr[fidx[a[1]], fidx[c[1]]] = 1
          calls[a[1]] = calls[a[1]] (index(calls[a[1]], " " c[1] " ") ? "" : " " c[1] " ")
        }
      }
    }
    edges = 0
    for (e in r) edges++
    for (i = 1; i <= m; i++) {
      s = calls[fname[i]]
      gsub(/  +/, " ", s)
      sub(/ $/, "", s)
      printf "  %-8s calls%s\n", fname[i], s == "" ? " nothing" : s
    }
    bad = cycles("files", n, name, r)
    bad = cycles("folders", m, fname, fr) || bad
    printf "%d files in %d folders, %d calls between files, %s\n", n, m, edges,
           bad ? "cycles" : "no cycle"
    exit bad
  }'
