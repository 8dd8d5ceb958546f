#!/bin/sh
# Prepare this checkout on a fresh Debian machine: packages (as root),
# autotools bootstrap, configure. Idempotent and cheap when already done.
# Extra configure arguments may be passed through: maint/setup.sh --with-mpich-tarball=F
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
if [ "$(id -u)" = 0 ]; then maint/install-deps.sh
else maint/install-deps.sh || echo "setup: not root; assuming packages are present" >&2; fi
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
    autoreconf -fi >/dev/null
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ] || [ $# -gt 0 ]; then
    ./configure -q "$@"
fi
# The pre-commit hook keeps README.md's figures block in step with the tree.
if git rev-parse --git-dir >/dev/null 2>&1; then git config core.hooksPath maint/hooks || true; fi
echo "setup: ready in $(( $(date +%s) - t0 ))s" >&2
