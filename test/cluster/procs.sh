#!/bin/sh
# Processes running on the emulated hosts of test/cluster/cluster.sh, found by
# their network namespace.
#
#   procs.sh [DIR [HOST ...]]
#
# DIR: the cluster's state directory (default $AVCLUSTER_DIR); HOSTs: default
# every host and the bridge. Prints "HOST PID COMMAND" per process, leaving
# out the process that holds each host's namespaces, this script and its
# children. Exit status 0 (also when none is found).
dir=${1:-${AVCLUSTER_DIR:-}}
[ -d "$dir" ] || { echo "procs.sh: no cluster directory '$dir'" >&2; exit 2; }
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- $(cd "$dir" && ls *.ns 2>/dev/null | sed 's/\.ns$//')
map=$(mktemp)
for h in "$@"; do echo "$(cat "$dir/$h.ns") $h $(cat "$dir/$h.pid")"; done > "$map"
find /proc -mindepth 3 -maxdepth 3 -path '/proc/[0-9]*/ns/net' -printf '%h %l\n' 2>/dev/null |
awk -v map="$map" -v self=$$ '
    BEGIN { while ((getline l < map) > 0) { split(l, a, " "); host[a[1]] = a[2]; holder[a[1]] = a[3] } }
    !($2 in host) { next }
    { pid = $1; sub(/^\/proc\//, "", pid); sub(/\/ns$/, "", pid) }
    pid == self || pid == holder[$2] { next }
    { st = ""; getline st < ("/proc/" pid "/stat"); split(st, f, " ")
      cmd = ""; getline cmd < ("/proc/" pid "/cmdline"); gsub(/\0/, " ", cmd)
      if (f[4] != self && cmd != "") print host[$2], pid, cmd }'
rm -f "$map"
