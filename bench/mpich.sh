#!/bin/sh
# MPICH with dataloop as its datatype engine (tools/run mpich) beside
# Debian's MPICH, in one run:
#
#   bench/mpich.sh [--prefix DIR] [--rounds N] [--out DIR] [--filter NAME]
#                  [--quick | --full] [--no-pingpong]
#
# The benchmark programs are linked with Debian's libmpich.so.12; the other
# MPICH has the same library name and ABI, so each program runs on either
# (LD_LIBRARY_PATH=DIR/lib selects it). Each round runs dataloop-bench
# (MPI_Pack beside dl_pack and the hand-written loop, every synthetic and
# application test) and, unless --no-pingpong, the two-rank
# dataloop-pingpong (round trips of derived datatypes) on Debian's library,
# then on DIR's; N rounds (default 3) alternate them, so that the machine's
# drift falls on both alike. Ratios are taken within a round (the two runs
# next to each other) and their median over rounds is reported, with the
# lowest and highest.
#
# Output (in OUT, default bench/results/mpich): the programs' CSV files of
# each round (stock-R/, dataloop-R/), and
#   mpich.csv      per test: median MB/s of the hand-written loop, dl_pack
#                  called directly, Debian's MPI_Pack and the new MPI_Pack;
#                  new/dl_pack (the seam's cost: 1.0 is free), new/stock,
#                  new/manual (each median, min, max over rounds)
#   pingpong.csv   per pattern: median round-trip microseconds of MPICH's
#                  own derived-type send on each library and of the
#                  hand-written loop; stock/new (the new MPICH's speed-up)
# and both as aligned tables on standard output.
#
# DIR defaults to mpich-dataloop/ of the project. Exit status: 0 when every
# run checked its bytes and the files were written; 1 otherwise; 2 usage.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prefix=$top/mpich-dataloop
rounds=3
out=bench/results/mpich
filter=""
speed=--quick
pingpong=1
bin=${BENCH_BIN:-bench}
mpiexec=${MPIEXEC:-mpiexec.mpich}

usage() {
  sed -n '/^#   bench\/mpich.sh/,/--no-pingpong\]$/s/^# \{0,3\}//p' "$0" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case $1 in
  --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
  --rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
  --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  --filter) [ $# -ge 2 ] || usage; filter=$2; shift 2 ;;
  --quick | --full) speed=$1; shift ;;
  --no-pingpong) pingpong=0; shift ;;
  -h | --help) usage ;;
  *) echo "bench/mpich.sh: unknown argument $1" >&2; usage ;;
  esac
done
case $rounds in '' | *[!0-9]* | 0) echo "bench/mpich.sh: --rounds takes a positive number" >&2; exit 2 ;; esac
lib=$prefix/lib
[ -e "$lib/libmpich.so.12" ] || {
  echo "bench/mpich.sh: no libmpich.so.12 in $lib (build it: tools/run mpich)" >&2
  exit 1
}
for p in dataloop-bench dataloop-pingpong; do
  [ -x "$bin/$p" ] || { echo "bench/mpich.sh: $bin/$p not built (make)" >&2; exit 1; }
done

set -- $speed
[ -n "$filter" ] && set -- "$@" --filter "$filter"
mkdir -p "$out"
r=1
while [ "$r" -le "$rounds" ]; do
  for which in stock dataloop; do
    d=$out/$which-$r
    mkdir -p "$d"
    echo "== round $r of $rounds: $which MPICH"
    if [ "$which" = stock ]; then
      "$bin/dataloop-bench" "$@" --out "$d" >"$d/bench.txt"
      [ "$pingpong" = 0 ] || "$mpiexec" -n 2 "$bin/dataloop-pingpong" "$@" --out "$d" >"$d/pingpong.txt"
    else
      LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        "$bin/dataloop-bench" "$@" --out "$d" >"$d/bench.txt"
      [ "$pingpong" = 0 ] || "$mpiexec" -n 2 -genv LD_LIBRARY_PATH "$lib" \
        "$bin/dataloop-pingpong" "$@" --out "$d" >"$d/pingpong.txt"
    fi
  done
  r=$((r + 1))
done

# the medians: awk reads every round's CSV, keyed by test and round
awk -F, -v rounds="$rounds" -v outdir="$out" -v pp="$pingpong" '
function med(a, n,   i, j, t) {   # sorts a[1..n], returns its median
  for (i = 2; i <= n; i++)
    for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FNR == 1 {
  split(FILENAME, p, "/"); dir = p[length(p) - 1]; file = p[length(p)]
  split(dir, q, "-"); lib = q[1]; round = q[2]
  for (i = 1; i <= NF; i++) col[$i] = i
  next
}
file == "results.csv" && $col["direction"] == "pack" {
  t = $1; gsub(/"/, "", t)
  if (!(t in seen)) { seen[t] = 1; order[++ntests] = t }
  mb[t, lib, "manual", round] = $col["manual_mbs"]
  mb[t, lib, "dl", round] = $col["dataloop_mbs"]
  mb[t, lib, "mpich", round] = $col["MPICH_mbs"]
}
file == "pingpong.csv" {
  t = $1; gsub(/"/, "", t)
  if (!(t in pseen)) { pseen[t] = 1; porder[++npp] = t }
  us[t, lib, $col["variant"], round] = $col["median_us"]
}
END {
  csv = outdir "/mpich.csv"
  print "test,manual_mbs,dl_pack_mbs,stock_mpi_pack_mbs,dl_mpi_pack_mbs," \
        "new_over_dl,new_over_dl_min,new_over_dl_max,new_over_stock,new_over_stock_min," \
        "new_over_stock_max,new_over_manual,new_over_manual_min,new_over_manual_max" > csv
  printf "%-28s %8s %8s %8s %8s | %-17s %-17s %-17s\n", "MPI_Pack (MB/s)", "manual",
         "dl_pack", "stock", "new", "new/dl_pack", "new/stock", "new/manual"
  for (k = 1; k <= ntests; k++) {
    t = order[k]
    n1 = n2 = n3 = n4 = 0
    split("", m1); split("", m2); split("", m3); split("", m4)
    split("", r1); split("", r2); split("", r3)
    for (i = 1; i <= rounds; i++) {
      if (!((t, "dataloop", "mpich", i) in mb) || !((t, "stock", "mpich", i) in mb)) continue
      nw = mb[t, "dataloop", "mpich", i]; dl = mb[t, "dataloop", "dl", i]
      st = mb[t, "stock", "mpich", i]; mn = mb[t, "dataloop", "manual", i]
      m1[++n1] = mn; m2[++n2] = dl; m3[++n3] = st; m4[++n4] = nw
      r1[n1] = dl > 0 ? nw / dl : 0; r2[n1] = st > 0 ? nw / st : 0; r3[n1] = mn > 0 ? nw / mn : 0
    }
    if (!n1) continue
    a = med(m1, n1); b = med(m2, n2); c = med(m3, n3); d = med(m4, n4)
    x = med(r1, n1); xl = r1[1]; xh = r1[n1]
    y = med(r2, n1); yl = r2[1]; yh = r2[n1]
    z = med(r3, n1); zl = r3[1]; zh = r3[n1]
    printf "\"%s\",%.1f,%.1f,%.1f,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
           t, a, b, c, d, x, xl, xh, y, yl, yh, z, zl, zh > csv
    printf "%-28s %8.0f %8.0f %8.0f %8.0f | %5.2f %5.2f-%-5.2f %5.2f %5.2f-%-5.2f %5.2f %5.2f-%-5.2f\n",
           substr(t, 1, 28), a, b, c, d, x, xl, xh, y, yl, yh, z, zl, zh
  }
  if (!pp) exit
  csv = outdir "/pingpong.csv"
  print "pattern,stock_mpich_us,dl_mpich_us,manual_us,stock_over_new,stock_over_new_min," \
        "stock_over_new_max" > csv
  printf "\n%-28s %10s %10s %10s | %-17s\n", "ping-pong (us a round trip)", "stock",
         "new", "manual", "stock/new"
  for (k = 1; k <= npp; k++) {
    t = porder[k]
    split("", s1); split("", s2); split("", s3); split("", q1); n = 0
    for (i = 1; i <= rounds; i++) {
      if (!((t, "stock", "MPICH", i) in us) || !((t, "dataloop", "MPICH", i) in us)) continue
      st = us[t, "stock", "MPICH", i]; nw = us[t, "dataloop", "MPICH", i]
      s1[++n] = st; s2[n] = nw; s3[n] = us[t, "dataloop", "manual", i]
      q1[n] = nw > 0 ? st / nw : 0
    }
    if (!n) continue
    a = med(s1, n); b = med(s2, n); c = med(s3, n); x = med(q1, n)
    printf "\"%s\",%.2f,%.2f,%.2f,%.3f,%.3f,%.3f\n", t, a, b, c, x, q1[1], q1[n] > csv
    printf "%-28s %10.1f %10.1f %10.1f | %5.2f %5.2f-%-5.2f\n", substr(t, 1, 28), a, b, c,
           x, q1[1], q1[n]
  }
}' "$out"/stock-*/results.csv "$out"/dataloop-*/results.csv \
  $( [ "$pingpong" = 0 ] || ls "$out"/stock-*/pingpong.csv "$out"/dataloop-*/pingpong.csv )
echo "results: $out/mpich.csv"
[ "$pingpong" = 0 ] || echo "results: $out/pingpong.csv"
