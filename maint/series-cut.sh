#!/bin/sh
# A scratch copy of the series cut after one patch, for
# maint/apply-patches.sh: series-quick.sh and series-prefixes.sh advance a
# tree prefix by prefix with it.
#   series-cut.sh REPO NNNN
# Makes (or refreshes) REPO with patches/mpich/ (every patch; the series up
# to and including patch NNNN), maint/apply-patches.sh and a link mpich to
# our files; then `REPO/maint/apply-patches.sh TREE` brings TREE to that
# prefix (applying only what it lacks).
set -u
[ $# -eq 2 ] || { echo "usage: $0 REPO NNNN" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
repo=$1 k=$2
mkdir -p "$repo/patches/mpich" "$repo/maint" || exit 1
cp "$top"/patches/mpich/*.patch "$repo/patches/mpich/" &&
cp "$top/maint/apply-patches.sh" "$repo/maint/" &&
ln -sfn "$top/mpich" "$repo/mpich" &&
awk -v k="$k" '{ print } $1 ~ /\.patch$/ && substr($1, 1, 4) == k { exit }' \
    "$top/patches/mpich/series" > "$repo/patches/mpich/series"
