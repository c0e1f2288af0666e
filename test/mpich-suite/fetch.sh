#!/bin/sh
# fetch.sh DIR: MPICH's source, as Debian packages it, unpacked in DIR.
#
# Fetches the source package of the installed MPICH (`apt-get source`) into
# DIR and unpacks it there (DIR/mpich-<upstream version>/), through a private
# sources list and apt state folder under DIR/apt: nothing of the machine's
# apt configuration changes. The one deb-src line names the archive URI and
# suite that the machine's own apt configuration installs MPICH from (read at
# run time from `apt-cache policy`, with the signing key of that sources
# entry from `apt-get indextargets`), so no host is written here.
#
# Cached: a second call with the same DIR fetches nothing. On success the
# last line on stdout is the absolute path of the unpacked tree; anything
# else (no apt, no network, a version that is not the installed one) is an
# error, never a skip.
#
# Environment: MPICH_SRC_PACKAGE (default mpich), MPICH_BIN_PACKAGE (the
# installed binary package whose version is wanted, default libmpich-dev).
set -eu

die() {
  echo "fetch.sh: error: $*" >&2
  exit 1
}

[ $# -eq 1 ] || die "usage: fetch.sh DIR"
mkdir -p "$1" || die "cannot create $1"
dir=$(cd "$1" && pwd)
src_pkg=${MPICH_SRC_PACKAGE:-mpich}
bin_pkg=${MPICH_BIN_PACKAGE:-libmpich-dev}

# the installed version: source version (4.0.2-3) and upstream (4.0.2)
src_ver=$(dpkg-query -W -f '${source:Version}' "$bin_pkg" 2>/dev/null) ||
  die "$bin_pkg is not installed (dpkg-query failed)"
[ -n "$src_ver" ] || die "cannot read the installed version of $bin_pkg"
up_ver=${src_ver#*:}
up_ver=${up_ver%-*}
tree="$dir/$src_pkg-$up_ver"
stamp="$tree/.dataloop-fetched"

if [ -f "$stamp" ] && [ -d "$tree/test/mpi" ]; then
  echo "fetch.sh: cached: $tree ($(cat "$stamp"))" >&2
  echo "$tree"
  exit 0
fi

command -v apt-get >/dev/null 2>&1 || die "apt-get not found"
command -v dpkg-source >/dev/null 2>&1 ||
  die "dpkg-source not found: install dpkg-dev"

# Which archive: the lines of `apt-cache policy` under the installed version
# ("500 http://deb.debian.org/debian bookworm/main amd64 Packages"), else
# under any version in the table. The URI and suite of the first that is not
# dpkg's status file.
policy=$(LC_ALL=C apt-cache policy "$bin_pkg" 2>/dev/null) ||
  die "apt-cache policy $bin_pkg failed"
origin=$(printf '%s\n' "$policy" | awk '
  /^ *Version table:/ { intable = 1; next }
  !intable { next }
  /^ (\*\*\*|   ) [^ ]+ [0-9-]+$/ { inst = ($1 == "***"); next }
  NF >= 3 && $2 ~ /^[A-Za-z][A-Za-z0-9+.-]*:/ && $3 ~ /\// {
    if (inst && first_inst == "") first_inst = $2 " " $3
    if (first_any == "") first_any = $2 " " $3
  }
  END { print (first_inst != "" ? first_inst : first_any) }')
[ -n "$origin" ] ||
  die "no archive in 'apt-cache policy $bin_pkg' provides $bin_pkg (run apt-get update?)"
uri=${origin%% *}
suite_comp=${origin#* }
suite=${suite_comp%/*}
comp=${suite_comp##*/}
if [ -z "$uri" ] || [ -z "$suite" ] || [ -z "$comp" ] || [ "$suite" = "$suite_comp" ]; then
  die "cannot parse the archive line '$origin'"
fi

# The signing key of that sources entry, if it names one (Signed-By in a
# deb822 .sources stanza, [signed-by=...] in a .list line); without one
# apt's trusted keyrings apply, as for the machine's own entry.
entry=$(LC_ALL=C apt-get indextargets 2>/dev/null | awk -v site="${uri%/}" \
  -v rel="$suite" -v comp="$comp" '
  /^$/ { if (s == site && r == rel && c == comp && e != "") { print e; exit }
         s = r = c = e = ""; next }
  /^Site: /         { s = $2; sub(/\/$/, "", s) }
  /^Release: /      { r = $2 }
  /^Component: /    { c = $2 }
  /^Sourcesentry: / { e = $2 }
  END { if (s == site && r == rel && c == comp && e != "") print e }' |
  head -n 1)
signed_by=""
if [ -n "$entry" ]; then
  file=${entry%:*}
  num=${entry##*:}
  case $file in
  *.sources)
    # the num-th stanza (stanzas are separated by blank lines)
    signed_by=$(awk -v want="$num" '
      BEGIN { n = 1; blank = 0 }
      /^[ \t]*$/ { blank = 1; next }
      /^#/ { next }
      { if (blank && seen) n++; blank = 0; seen = 1 }
      n == want && tolower($1) == "signed-by:" && NF == 2 { print $2; exit }
    ' "$file" 2>/dev/null || true)
    ;;
  *)
    signed_by=$(sed -n "${num}p" "$file" 2>/dev/null |
      sed -n 's/.*\[[^]]*signed-by=\([^] ]*\).*/\1/p' || true)
    ;;
  esac
  # only a key file; an inline key block is not carried over
  case $signed_by in /*) [ -r "$signed_by" ] || signed_by="" ;; *) signed_by="" ;; esac
fi

apt_dir="$dir/apt"
rm -rf "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" \
  "$apt_dir/sourceparts"
opt=""
[ -n "$signed_by" ] && opt=" [signed-by=$signed_by]"
printf 'deb-src%s %s %s %s\n' "$opt" "$uri" "$suite" "$comp" >"$apt_dir/sources.list"
echo "fetch.sh: $(cat "$apt_dir/sources.list")" >&2

apt_private() {
  # as root apt would drop to the _apt user, who may not reach DIR
  sandbox=""
  [ "$(id -u)" -eq 0 ] && sandbox="-o APT::Sandbox::User=root"
  # shellcheck disable=SC2086  # $sandbox is empty or two words
  apt-get -q $sandbox \
    -o Dir::Etc::SourceList="$apt_dir/sources.list" \
    -o Dir::Etc::SourceParts="$apt_dir/sourceparts" \
    -o Dir::State="$apt_dir" \
    -o Dir::State::Lists="$apt_dir/lists" \
    -o Dir::State::status=/var/lib/dpkg/status \
    -o Dir::Cache="$apt_dir/cache" \
    "$@"
}

apt_private update >"$apt_dir/update.log" 2>&1 || {
  cat "$apt_dir/update.log" >&2
  die "apt-get update of the private deb-src list failed"
}

# the installed source version first; if the archive has moved on, its
# current one (checked against the installed upstream version below)
rm -rf "$tree"
cd "$dir"
if ! apt_private source "$src_pkg=$src_ver" >"$apt_dir/source.log" 2>&1; then
  echo "fetch.sh: $src_pkg=$src_ver is not in the archive, trying its current version" >&2
  apt_private source "$src_pkg" >>"$apt_dir/source.log" 2>&1 || {
    cat "$apt_dir/source.log" >&2
    die "apt-get source $src_pkg failed"
  }
fi
[ -d "$tree/test/mpi" ] || {
  cat "$apt_dir/source.log" >&2
  die "apt-get source did not unpack $tree (the archive's upstream version differs from the installed $up_ver?)"
}
got=$(sed -n 's/^Version: //p' "$dir"/"${src_pkg}"_*.dsc 2>/dev/null | tail -n 1)
echo "$src_pkg ${got:-$src_ver} from $uri $suite/$comp" >"$stamp"
echo "fetch.sh: unpacked $tree ($(cat "$stamp"))" >&2
echo "$tree"
