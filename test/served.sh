# Sourced by the scripts that check what the interposer served, from the
# ranks' DL_STATS_FILE lines in $work/stats ($ranks ranks, default 2); $m
# names the run. served K N: at least N of field K, summed over the
# ranks, and every rank wrote its counts.
served() {
  got=$(awk -v k="$1" -v want="${ranks:-2}" '/^dataloop-preload / { r++
      for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) n += kv[2] } }
    END { print (r == want ? n + 0 : "ranks:" r + 0) }' "$work/stats")
  case $got in
  ranks:*) echo "FAILED: $m: $got of ${ranks:-2} ranks wrote their counts" >&2; exit 1 ;;
  esac
  [ "$got" -ge "$2" ] || { echo "FAILED: $m: $1=$got served, at least $2 expected" >&2; exit 1; }
  echo "$m: $1=$got"
}
