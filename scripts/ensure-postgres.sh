#!/usr/bin/env bash
# Makes sure a PostgreSQL answers on 127.0.0.1:5432 for the test suite, installing and starting
# Debian's PostgreSQL when nothing answers. Prints the connection string on stdout.
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432

answers() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$PG_HOST" -p "$PG_PORT"
  else
    (exec 3<>"/dev/tcp/$PG_HOST/$PG_PORT") 2>/dev/null
  fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if ! answers; then
  echo "ensure-postgres: nothing answers on $PG_HOST:$PG_PORT; starting Debian's PostgreSQL" >&2
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    as_root apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >&2
  fi
  version="$(ls /etc/postgresql | sort -n | tail -n 1)"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
  for _ in $(seq 1 30); do answers && break; sleep 1; done
  answers || { echo "ensure-postgres: PostgreSQL did not come up" >&2; exit 1; }
  # The tests connect over TCP as postgres with a password.
  as_root su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >&2
fi

echo "postgresql://postgres:postgres@$PG_HOST:$PG_PORT"
