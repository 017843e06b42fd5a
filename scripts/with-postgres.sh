#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#
#   scripts/with-postgres.sh npm test
#   scripts/with-postgres.sh node scripts/test.mjs store-postgres
#
# initdb's a cluster in a temporary directory, starts it on a free 127.0.0.1 port, runs the
# command with REELBASE_TEST_POSTGRES=postgres://reelbase@127.0.0.1:PORT/postgres, then stops the
# cluster and removes the directory, whatever the command's outcome; the command's exit status is
# the script's. PostgreSQL refuses to run as root, so as root the cluster runs as $REELBASE_PG_USER
# (default `postgres`, created when missing). The cluster trusts loopback connections and skips
# fsync: it holds test data only. With REELBASE_TEST_POSTGRES already set, the command runs as is.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARG]…" >&2
  exit 2
fi
if [ -n "${REELBASE_TEST_POSTGRES:-}" ]; then
  exec "$@"
fi

bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$bin" ] && command -v initdb >/dev/null; then bin=$(dirname "$(command -v initdb)"); fi
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-postgres: no PostgreSQL server binaries (initdb, pg_ctl); install Debian's postgresql or set PG_BIN" >&2
  exit 1
fi

as_owner=()
owner=
if [ "$(id -u)" -eq 0 ]; then
  owner=${REELBASE_PG_USER:-postgres}
  if ! id "$owner" >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --shell /usr/sbin/nologin "$owner"
  fi
  as_owner=(runuser -u "$owner" --)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/reelbase-pg.XXXXXX")
data="$dir/data"
started=
cleanup() {
  if [ -n "$started" ]; then "${as_owner[@]}" "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[ -z "$owner" ] || chown "$owner" "$dir"

"${as_owner[@]}" "$bin/initdb" -D "$data" -U reelbase --auth=trust --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }

free_port() {
  node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"
}

# Another process may take the port between choosing and binding it: try a few.
started=1
for attempt in 1 2 3 4 5; do
  port=$(free_port)
  if "${as_owner[@]}" "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null; then
    break
  fi
  if [ "$attempt" -eq 5 ]; then cat "$dir/server.log" >&2; exit 1; fi
done

export REELBASE_TEST_POSTGRES="postgres://reelbase@127.0.0.1:$port/postgres"
echo "with-postgres: $("$bin/postgres" --version) on 127.0.0.1:$port (throwaway cluster in $dir)" >&2
status=0
"$@" || status=$?
exit "$status"
