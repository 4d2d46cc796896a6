#!/usr/bin/env bash
# Memory and time of a large import, in a real `folio serve`.
#
#   bench/import.sh [sqlite|postgres|both]      (default: sqlite)
#
# For each store it starts `folio serve` at default settings on a fresh
# database, creates a space and imports the benchmark corpus (bench/gencorpus
# -folders 100 -pages 100 -words 500 -seed 2: 10,100 Markdown pages, ~35 MB)
# as a zip with POST /v1/spaces/{id}/content/import. While the import runs it
# samples the server every 100 ms: the Go live heap (go_gc_heap_live_bytes of
# /metrics, the heap marked live by the last GC) and the heap in use
# (go_memstats_heap_inuse_bytes). It prints the import's wall time, the
# server's peak RSS (VmHWM, which includes the start), the largest live heap
# and heap in use seen, and the RSS after the import.
#
# Environment: RUNS (imports per store, each into a new server, default 1),
# IMPORT_TIMEOUT (seconds, default 900), GOMEMLIMIT (passed to the server when
# set). PostgreSQL runs use a new database folio_bench_<random> on
# 127.0.0.1:5432 as user postgres (trust auth), dropped at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

RUNS=${RUNS:-1}
IMPORT_TIMEOUT=${IMPORT_TIMEOUT:-900}
pg_admin_url=postgres://postgres@127.0.0.1:5432

# shellcheck source=bench/lib.sh
. bench/lib.sh
parse_stores "${1:-sqlite}" 19
command -v curl >/dev/null || die "curl is required"
command -v jq >/dev/null || die "jq is required"

tmp=$(mktemp -d)
server_pid=
zip_pid=
databases=()

cleanup() {
  stop_pid "$server_pid"
  stop_pid "$zip_pid"
  for db in "${databases[@]}"; do
    psql -X -q -w -d "$pg_admin_url/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" </dev/null ||
      echo "warning: could not drop database $db" >&2
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "building folio, bench/gencorpus and bench/staticserve"
go build -o "$tmp/folio" ./cmd/folio
go build -o "$tmp/gencorpus" ./bench/gencorpus
go build -o "$tmp/staticserve" ./bench/staticserve

mkdir -p "$tmp/www"
"$tmp/gencorpus" -folders 100 -pages 100 -words 500 -seed 2 -o "$tmp/www/docs.zip"
"$tmp/staticserve" -dir "$tmp/www" >"$tmp/zip.out" 2>"$tmp/zip.err" &
zip_pid=$!
zip_url=http://$(wait_listen "$zip_pid" "$tmp/zip.out")/docs.zip

api() {
  curl -fsS -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+--data "$3"} "$base_url$2"
}

# metric NAME prints a metric of the server's /metrics, in MiB.
metric() {
  curl -fsS "$base_url/metrics" 2>/dev/null | awk -v m="$1" '$1 == m { printf "%.0f", $2 / 1048576 }'
}

import_once() {
  local store=$1 run=$2 store_args=()
  case $store in
    sqlite)
      mkdir -p "$tmp/data-$store-$run"
      store_args=(--data "$tmp/data-$store-$run")
      ;;
    postgres)
      local db
      db=folio_bench_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
      psql -X -q -w -d "$pg_admin_url/postgres" -c "CREATE DATABASE $db" </dev/null ||
        die "could not create database $db on 127.0.0.1:5432 as postgres"
      databases+=("$db")
      store_args=(--database-url "$pg_admin_url/$db?sslmode=disable")
      ;;
  esac
  "$tmp/folio" serve --addr 127.0.0.1:0 --rate-limit-token 0 --rate-limit-address 0 --access-log=false --log-level warn \
    --import-allow-private "${store_args[@]}" >"$tmp/server.out" 2>"$tmp/server.err" &
  server_pid=$!
  base_url=http://$(wait_listen "$server_pid" "$tmp/server.out")
  token=$(grep -oE 'folio_[A-Za-z0-9]{43}' "$tmp/server.out" | head -1) || true
  [ -n "$token" ] || die "no bootstrap token in the output of folio serve"
  local org space
  org=$(api GET /v1/orgs | jq -r '.items[0].id')
  space=$(api POST "/v1/orgs/$org/spaces" '{"title":"Handbook"}' | jq -r .id)
  local before_hwm t0 t1 live=0 inuse=0 v import_pid
  before_hwm=$(hwm_kb "$server_pid")
  t0=$(date +%s%N)
  curl -fsS -o "$tmp/import.json" --max-time "$IMPORT_TIMEOUT" -X POST -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' --data "{\"source\":\"zip\",\"url\":\"$zip_url\"}" \
    "$base_url/v1/spaces/$space/content/import" &
  import_pid=$!
  while kill -0 "$import_pid" 2>/dev/null; do
    v=$(metric go_gc_heap_live_bytes) && [ -n "$v" ] && [ "$v" -gt "$live" ] && live=$v
    v=$(metric go_memstats_heap_inuse_bytes) && [ -n "$v" ] && [ "$v" -gt "$inuse" ] && inuse=$v
    sleep 0.1
  done
  wait "$import_pid" || die "the import failed"
  t1=$(date +%s%N)
  local pages
  pages=$(api GET "/v1/spaces/$space/content/pages" | jq '[.. | objects | select(.type? == "document")] | length')
  printf '| %s | %s | %.1f s | %s MB | %s MB | %s MiB | %s MiB | %s MB |\n' "$store" "$pages" \
    "$(awk -v d=$((t1 - t0)) 'BEGIN { print d / 1e9 }')" "$(mb "$before_hwm")" "$(mb "$(hwm_kb "$server_pid")")" \
    "$live" "$inuse" "$(mb "$(rss_kb "$server_pid")")"
  stop_pid "$server_pid"
  server_pid=
}

echo '| store | document pages | import time | peak RSS before | peak RSS | max live heap | max heap in use | RSS after |'
echo '|---|---|---|---|---|---|---|---|'
for store in "${stores[@]}"; do
  for run in $(seq "$RUNS"); do
    import_once "$store" "$run"
  done
done
