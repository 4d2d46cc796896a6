#!/usr/bin/env bash
# Load benchmark of a real `folio serve` process with wrk, bounded in time.
#
#   bench/load.sh [sqlite|postgres|both]      (default: both)
#
# For each store it builds the binary, starts the server on a fresh database,
# measures the time from launch to the first 200 from /healthz, seeds 50
# organizations, then runs wrk (2 threads, 32 connections, $DURATION each) on
#   GET /v1/orgs/{id}, GET /v1/orgs?limit=50, PATCH /v1/orgs/{id},
#   and GET /v1/orgs/{id} again with the access log on (at info level).
# Then the content phase: it restarts the server with --import-allow-private,
# imports a generated zip of 10,100 pages (bench/gencorpus, served by
# python3 -m http.server on 127.0.0.1) into a new space, times the import and
# runs wrk on GET .../content/page/{pageId}?format=document over ~100 pages
# and GET .../search?query= over the gencorpus -queries list.
# While wrk runs it samples the server's RSS and CPU time. It prints one
# table row per scenario and writes the table to bench/results/load-DATE.md.
#
# Environment: DURATION (wrk -d, default 10s), THREADS (2), CONNECTIONS (32),
# CONTENT (1: run the content phase too, 0: skip it, only: run only it),
# IMPORT_TIMEOUT (seconds the import may take, default 900).
# PostgreSQL runs use a new database folio_bench_<random> on
# 127.0.0.1:5432 as user postgres (trust auth), dropped at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
CONTENT=${CONTENT:-1}
IMPORT_TIMEOUT=${IMPORT_TIMEOUT:-900}
pg_admin_url=postgres://postgres@127.0.0.1:5432

# shellcheck source=bench/lib.sh
. bench/lib.sh
parse_stores "${1:-both}" 23

case $CONTENT in 0 | 1 | only) ;; *) die "CONTENT must be 0, 1 or only, not $CONTENT" ;; esac
case $IMPORT_TIMEOUT in '' | *[!0-9]*) die "IMPORT_TIMEOUT must be a number of seconds" ;; esac

tools=(curl jq)
[ "$CONTENT" = 0 ] || tools+=(python3)
need_tools "${tools[@]}"

tmp=$(mktemp -d)
server_pid=
wrk_pid=
http_pid=
import_pid=
databases=()

stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM "$server_pid" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

cleanup() {
  [ -z "$wrk_pid" ] || kill "$wrk_pid" 2>/dev/null || true
  [ -z "$import_pid" ] || kill "$import_pid" 2>/dev/null || true
  stop_server
  if [ -n "$http_pid" ]; then
    kill "$http_pid" 2>/dev/null || true
    wait "$http_pid" 2>/dev/null || true
  fi
  for db in "${databases[@]}"; do
    psql -X -q -w -d "$pg_admin_url/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" </dev/null ||
      echo "warning: could not drop database $db" >&2
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "building folio"
go build -o "$tmp/folio" ./cmd/folio
if [ "$CONTENT" != 0 ]; then
  say "building bench/gencorpus"
  go build -o "$tmp/gencorpus" ./bench/gencorpus
fi

clk_tck=$(getconf CLK_TCK)
now_ms() { echo $(($(date +%s%N) / 1000000)); }


# start_server STORE_ARGS...: launches folio serve on a free port, waits for
# the first 200 from /healthz and sets server_pid, base_url and start_ms.
start_server() {
  local out=$tmp/server.$RANDOM.out t0 addr=
  t0=$(now_ms)
  "$tmp/folio" serve --addr 127.0.0.1:0 --rate-limit-token 0 --rate-limit-address 0 "$@" >"$out" 2>>"$tmp/server.err" &
  server_pid=$!
  server_out=$out
  # Poll tightly with few processes per round: the figure is meant to be
  # within a few ms of the server's own start time.
  local re='listening on http://([0-9.]+:[0-9]+)' line
  for _ in $(seq 10000); do
    kill -0 "$server_pid" 2>/dev/null || {
      cat "$tmp/server.err" >&2
      die "folio serve exited during start"
    }
    if [ -z "$addr" ]; then
      while IFS= read -r line; do
        [[ $line =~ $re ]] && addr=${BASH_REMATCH[1]} && break
      done <"$out"
    fi
    if [ -n "$addr" ] && curl -fs -o /dev/null "http://$addr/healthz"; then
      start_ms=$(($(now_ms) - t0))
      base_url=http://$addr
      return 0
    fi
    sleep 0.003
  done
  die "folio serve did not answer /healthz within 30s"
}

# api METHOD PATH [BODY]: one authenticated JSON request; prints the body and
# fails unless the status is 2xx.
api() {
  curl -fsS -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+--data "$3"} "$base_url$2"
}

cat >"$tmp/patch.lua" <<'LUA'
-- PATCH /v1/orgs/{id} with a JSON body whose title changes on every request.
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, '{"title":"Bench org ' .. n .. '"}')
end
LUA

rows=()

# run_wrk STORE SCENARIO PATH [LUA [TIMEOUT]]: runs wrk against the running
# server while sampling its RSS and CPU time, and adds a table row. TIMEOUT is
# wrk's --timeout (default 2s): slower requests count as socket errors.
run_wrk() {
  local store=$1 scenario=$2 path=$3 script=${4:-} timeout=${5:-} out=$tmp/wrk.out
  local args=(-t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -H "Authorization: Bearer $token")
  [ -n "$script" ] && args+=(-s "$script")
  [ -n "$timeout" ] && args+=(--timeout "$timeout")
  say "$store: $scenario ($DURATION)"
  measure_wrk "$server_pid" "$out" "${args[@]}" "$base_url$path"
  rows+=("| $store | $scenario | $rps | $p50 | $p99 | $cpu_us | $(mb "$max_rss") | ${non2xx:-0} |")
  printf '   %s req/s, p50 %s, p99 %s, %s µs CPU/request, %s requests, non-2xx %s\n' \
    "$rps" "$p50" "$p99" "$cpu_us" "$requests" "${non2xx:-0}" >&2
}


corpus_url=
corpus_pages=10100

# prepare_corpus: once per run, generates the zip of 10,100 pages and the
# search queries with bench/gencorpus, and serves the zip on 127.0.0.1 with
# python3 -m http.server on a free port. Sets corpus_url.
prepare_corpus() {
  [ -z "$corpus_url" ] || return 0
  mkdir -p "$tmp/www"
  say "generating $corpus_pages pages of ~500 words with bench/gencorpus"
  "$tmp/gencorpus" -folders 100 -pages 100 -words 500 -seed 2 -o "$tmp/www/docs.zip"
  "$tmp/gencorpus" -queries -o "$tmp/queries.txt"
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$tmp/www" >"$tmp/http.out" 2>"$tmp/http.err" </dev/null &
  http_pid=$!
  local port=
  for _ in $(seq 1000); do
    kill -0 "$http_pid" 2>/dev/null || {
      cat "$tmp/http.err" >&2
      die "python3 -m http.server exited during start"
    }
    [ -n "$port" ] || port=$(grep -oE 'port [0-9]+' "$tmp/http.out" | head -1 | cut -d' ' -f2) || true
    if [ -n "$port" ] && curl -fsI -o /dev/null --max-time 2 "http://127.0.0.1:$port/docs.zip"; then
      corpus_url=http://127.0.0.1:$port/docs.zip
      return 0
    fi
    sleep 0.01
  done
  die "python3 -m http.server did not serve the corpus within 10s"
}

imports=()

# bench_content STORE STORE_ARGS...: the content phase. Starts the server
# with --import-allow-private unless it runs, imports the corpus into a new
# space of $org and runs wrk on page reads and searches.
bench_content() {
  local store=$1
  shift
  prepare_corpus
  if [ -z "$server_pid" ]; then
    say "$store: restarting with --import-allow-private for the content phase"
    start_server "$@" --access-log=false --log-level warn --import-allow-private
  fi
  local space
  space=$(api POST "/v1/orgs/$org/spaces" '{"title":"Bench"}' | jq -r .id) || die "POST /v1/orgs/$org/spaces failed"
  if [ -z "$space" ] || [ "$space" = null ]; then
    die "POST /v1/orgs/$org/spaces returned no id"
  fi

  local zip_mb out=$tmp/import.out ticks0 ticks1 t0 ms max_rss=0 rss code
  zip_mb=$(awk -v b="$(stat -c %s "$tmp/www/docs.zip")" 'BEGIN { printf "%.1f", b / 1048576 }')
  say "$store: importing $corpus_pages pages ($zip_mb MB zip) from $corpus_url (at most ${IMPORT_TIMEOUT}s)"
  ticks0=$(cpu_ticks "$server_pid")
  t0=$(now_ms)
  curl -sS -o "$out" -w '%{http_code}' --max-time "$IMPORT_TIMEOUT" -X POST \
    -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    --data "{\"source\":\"zip\",\"url\":\"$corpus_url\"}" \
    "$base_url/v1/spaces/$space/content/import" >"$tmp/import.code" 2>"$tmp/import.err" &
  import_pid=$!
  while kill -0 "$import_pid" 2>/dev/null; do
    rss=$(rss_kb "$server_pid")
    [ "${rss:-0}" -gt "$max_rss" ] && max_rss=$rss
    sleep 0.1
  done
  wait "$import_pid" || {
    cat "$tmp/import.err" >&2
    die "the import request failed or took more than ${IMPORT_TIMEOUT}s"
  }
  import_pid=
  ms=$(($(now_ms) - t0))
  ticks1=$(cpu_ticks "$server_pid")
  code=$(<"$tmp/import.code")
  [ "$code" = 201 ] || {
    cat "$out" >&2
    echo >&2
    die "POST /v1/spaces/$space/content/import answered $code, want 201"
  }
  local secs cpu_s imported
  secs=$(awk -v m="$ms" 'BEGIN { printf "%.1f", m / 1000 }')
  cpu_s=$(awk -v t="$((ticks1 - ticks0))" -v hz="$clk_tck" 'BEGIN { printf "%.1f", t / hz }')
  imported=$(jq -r .importedResources "$out")
  imports+=("| $store | $imported pages ($zip_mb MB zip) | $secs | $cpu_s | $(mb "$max_rss") |")
  say "$store: imported $imported pages in $secs s ($cpu_s s CPU)"

  api GET "/v1/spaces/$space/content/pages" >"$tmp/pages.json" || die "GET /v1/spaces/$space/content/pages failed"
  local leaves
  leaves=$(jq '[.pages[].pages[]?.id] | length' "$tmp/pages.json")
  [ "$leaves" = 10000 ] || echo "warning: $leaves pages in the folders of the imported space, want 10000" >&2
  # Every 97th page of the folders: about 100 pages in every part of the space.
  jq -r --arg p "/v1/spaces/$space/content/page/" \
    '[.pages[].pages[]?.id] | to_entries[] | select(.key % 97 == 0) | $p + .value + "?format=document"' \
    "$tmp/pages.json" >"$tmp/page-paths.txt"
  [ -s "$tmp/page-paths.txt" ] || die "the imported space has no pages in folders"
  sed "s#^#/v1/spaces/$space/search?query=#" "$tmp/queries.txt" >"$tmp/search-paths.txt"
  local path
  while IFS= read -r path; do
    api GET "$path" >/dev/null || die "GET $path failed"
  done < <(head -1 "$tmp/page-paths.txt"; cat "$tmp/search-paths.txt")
  write_paths_lua "$tmp/pages.lua" <"$tmp/page-paths.txt"
  write_paths_lua "$tmp/search.lua" <"$tmp/search-paths.txt"

  run_wrk "$store" "GET content/page/{id}?format=document ($(wc -l <"$tmp/page-paths.txt") pages)" \
    "$(head -1 "$tmp/page-paths.txt")" "$tmp/pages.lua" 10s
  run_wrk "$store" "GET search?query= ($(wc -l <"$tmp/search-paths.txt") queries)" \
    "$(head -1 "$tmp/search-paths.txt")" "$tmp/search.lua" 10s
}

starts=()

bench_store() {
  local store=$1 store_args=()
  case $store in
    sqlite)
      mkdir -p "$tmp/data"
      store_args=(--data "$tmp/data")
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

  local first_args=(--access-log=false --log-level warn)
  [ "$CONTENT" != only ] || first_args+=(--import-allow-private)
  say "$store: starting folio serve on an empty database"
  start_server "${store_args[@]}" "${first_args[@]}"
  starts+=("| $store | empty database (migrate + first admin) | $start_ms |")
  say "$store: first answer after $start_ms ms at $base_url"
  token=$(grep -oE 'folio_[A-Za-z0-9]{43}' "$server_out" | head -1) || true
  [ -n "$token" ] || die "no bootstrap token in the output of folio serve"
  org=$(api GET /v1/orgs | jq -r '.items[0].id') || die "GET /v1/orgs failed"
  [ -n "$org" ] && [ "$org" != null ] || die "GET /v1/orgs returned no organization"

  if [ "$CONTENT" != only ]; then
    bench_orgs "$store" "${store_args[@]}"
  fi
  [ "$CONTENT" = 0 ] || bench_content "$store" "${store_args[@]}"
  stop_server
}

# bench_orgs STORE STORE_ARGS...: the organization scenarios, on the running
# server; it stops the server at the end.
bench_orgs() {
  local store=$1 i
  shift
  local store_args=("$@")
  for i in $(seq 2 50); do
    api POST /v1/orgs "{\"title\":\"Bench org $i\"}" >/dev/null || die "POST /v1/orgs failed"
  done
  local n
  n=$(api GET '/v1/orgs?limit=50' | jq '.items | length') || die "GET /v1/orgs?limit=50 failed"
  [ "$n" = 50 ] || die "GET /v1/orgs?limit=50 returned $n items, want 50"

  run_wrk "$store" "GET /v1/orgs/{id}" "/v1/orgs/$org"
  run_wrk "$store" "GET /v1/orgs?limit=50" "/v1/orgs?limit=50"
  run_wrk "$store" "PATCH /v1/orgs/{id}" "/v1/orgs/$org" "$tmp/patch.lua"

  stop_server
  say "$store: restarting with the access log on (--log-level info)"
  start_server "${store_args[@]}" --access-log=true --log-level info
  starts+=("| $store | existing database | $start_ms |")
  run_wrk "$store" "GET /v1/orgs/{id}, access log" "/v1/orgs/$org"
  stop_server
}

for store in "${stores[@]}"; do
  if [ "$store" = postgres ] && ! psql -X -q -w -d "$pg_admin_url/postgres" -c 'SELECT 1' >/dev/null 2>&1 </dev/null; then
    [ "$mode" = both ] || die "PostgreSQL does not accept connections as postgres on 127.0.0.1:5432"
    echo "warning: PostgreSQL is not reachable on 127.0.0.1:5432: skipping the postgres runs" >&2
    continue
  fi
  bench_store "$store"
done

report=$(
  echo "# folio load benchmark, $(date '+%Y-%m-%d %H:%M:%S %Z')"
  echo
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)'), $(go version | cut -d' ' -f3-), $(nproc) CPUs, $(uname -sr)"
  what="50 organizations"
  [ "$CONTENT" != only ] || what=
  [ "$CONTENT" = 0 ] || what="${what:+$what, }a space of $corpus_pages pages of ~500 words (bench/gencorpus)"
  echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on the same machine as the server; $what"
  echo
  echo "| store | scenario | req/s | p50 | p99 | CPU µs/req | max RSS MB | non-2xx |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "| store | start | ms to first 200 from /healthz |"
  echo "|---|---|---:|"
  printf '%s\n' "${starts[@]}"
  if [ ${#imports[@]} -gt 0 ]; then
    echo
    echo "| store | import (zip over HTTP from 127.0.0.1) | wall s | CPU s | max RSS MB |"
    echo "|---|---|---:|---:|---:|"
    printf '%s\n' "${imports[@]}"
  fi
)
mkdir -p bench/results
file=bench/results/load-$(date +%Y%m%d-%H%M%S).md
printf '%s\n' "$report" >"$file"
echo
printf '%s\n' "$report"
echo
echo "written to $file"
