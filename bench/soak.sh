#!/usr/bin/env bash
# Soak test: a real `folio serve` under a mixed workload at a fixed rate.
#
#   bench/soak.sh [sqlite|postgres|both]      (default: both)
#
# For each store it builds folio and bench/soak, starts the server on a
# fresh database (a temporary --data folder, or a new PostgreSQL database
# folio_soak_<random> on 127.0.0.1:5432 as postgres, dropped at the end),
# and runs bench/soak against it for $DURATION at $RATE requests/s: page
# reads, space reads, page lists, searches, published reader pages, space
# updates, imports replacing pages, and change requests opened, written
# and merged (the written spaces keep their size). Every
# status is recorded; each minute it reads the server's RSS and goroutines
# (/metrics) and the write-ahead log's size (SQLite's -wal file, or
# PostgreSQL's pg_wal folder). It fails on any 5xx or unanswered request, a
# p99 in the last minute over twice the second minute's (+10 ms), RSS or
# goroutines growing by half, or a WAL over 1 GiB; the largest RSS, sampled
# every 0.2 s, ends the report. Reports go to
# bench/results/soak-STORE-DATE.md.
#
# Environment: DURATION (default 10m), RATE (40), PAGES (500).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"
DURATION=${DURATION:-10m}
RATE=${RATE:-40}
PAGES=${PAGES:-500}
pg_admin_url=postgres://postgres@127.0.0.1:5432

# shellcheck source=bench/lib.sh
. bench/lib.sh
parse_stores "${1:-both}" 21
command -v curl >/dev/null || die "curl is required"

tmp=$(mktemp -d)
server_pid=
databases=()
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  for db in "${databases[@]}"; do
    psql -X -q -w -d "$pg_admin_url/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" </dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "building folio and bench/soak"
go build -o "$tmp/folio" ./cmd/folio
go build -o "$tmp/soak" ./bench/soak
mkdir -p bench/results
status=0
for store in "${stores[@]}"; do
  args=() probe=()
  case $store in
    sqlite)
      args=(--data "$tmp/data-sqlite")
      probe=(-wal "$tmp/data-sqlite/folio.db-wal")
      ;;
    postgres)
      db=folio_soak_$RANDOM$RANDOM
      psql -X -q -w -d "$pg_admin_url/postgres" -c "CREATE DATABASE $db" </dev/null || die "cannot create database $db"
      databases+=("$db")
      args=(--database-url "$pg_admin_url/$db?sslmode=disable")
      probe=(-pg "$pg_admin_url/$db?sslmode=disable")
      ;;
  esac
  say "$store: starting folio serve"
  "$tmp/folio" serve --addr 127.0.0.1:0 --rate-limit-token 0 --rate-limit-address 0 --access-log=false --log-level warn \
    "${args[@]}" >"$tmp/server.out" 2>"$tmp/server.err" &
  server_pid=$!
  addr=
  for _ in $(seq 600); do
    kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/server.err" >&2; die "folio serve exited"; }
    addr=$(grep -oE 'listening on http://[0-9.]+:[0-9]+' "$tmp/server.out" | head -1 | sed 's|.*http://||') || true
    [ -n "$addr" ] && curl -fs -o /dev/null "http://$addr/healthz" && break
    sleep 0.1
  done
  [ -n "$addr" ] || die "folio serve did not start"
  token=$(grep -oE 'folio_[A-Za-z0-9]{43}' "$tmp/server.out" | head -1) || true
  [ -n "$token" ] || die "no bootstrap token in the output of folio serve"
  report=bench/results/soak-$store-$(date +%Y%m%d-%H%M).md
  say "$store: $RATE requests/s for $DURATION (report: $report)"
  # The largest RSS of the server over the run (the report's samples are
  # a minute apart and miss peaks between collections).
  echo 0 >"$tmp/max_rss"
  (
    max=0
    while kill -0 "$server_pid" 2>/dev/null; do
      r=$(rss_kb "$server_pid")
      if [ "${r:-0}" -gt "$max" ]; then
        max=$r
        echo "$max" >"$tmp/max_rss"
      fi
      sleep 0.2
    done
  ) &
  sampler_pid=$!
  "$tmp/soak" -url "http://$addr" -token "$token" -duration "$DURATION" -rate "$RATE" -pages "$PAGES" "${probe[@]}" -o "$report" ||
    status=1
  kill "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  max_rss_line="- max RSS of the server over the run (sampled every 0.2 s, the setup included): $(($(cat "$tmp/max_rss") / 1024)) MB"
  echo "$max_rss_line" >>"$report"
  say "$store: ${max_rss_line#- }"
  if grep -E 'level=(ERROR|error)' "$tmp/server.err" | head -5 >&2; then
    say "$store: the server logged errors (above)"
    status=1
  fi
  kill -TERM "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
done
exit $status
