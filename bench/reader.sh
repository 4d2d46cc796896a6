#!/usr/bin/env bash
# Load benchmark of the published reader against static files, with wrk.
#
#   bench/reader.sh [sqlite|postgres|both]      (default: both)
#
# For each store it starts a real `folio serve` on a fresh database, imports a
# generated space of 10,100 pages (bench/gencorpus: 100 folders of 100 pages
# and a README, ~500 words each), publishes it as a public site, and takes
# every $EVERY-th page of the folders (1,000 pages by default) as the URL set.
# It fetches each of them once from the reader (which also fills the reader's
# cache) and writes the answers under a folder, served in the same run by Go's
# http.FileServer (bench/staticserve): the limit. Then wrk (2 threads, 32
# connections, $DURATION) GETs the URL set in turn from the reader, then from
# the static server, and the reader once more. It prints one table row per
# run (req/s, p50, p99, server CPU µs per request, max RSS) and writes the
# table to bench/results/reader-DATE.md.
#
# Environment: DURATION (wrk -d, default 10s), THREADS (2), CONNECTIONS (32),
# EVERY (10), IMPORT_TIMEOUT (seconds, default 900), READER_CACHE (bytes, the
# server's --reader-cache; default: the server's default), SHOW_MEMORY (when
# set, print the server's RSS, peak RSS and live heap right before the reader
# runs), ACCEPT_GZIP (default 1: wrk sends "Accept-Encoding: gzip" as browsers
# do, the static server sends each page's precompressed twin, gzip -6, as
# nginx's gzip_static does, and the reader sends the compressed copy its cache
# holds; ACCEPT_GZIP= (empty) measures clients that accept no encoding, which
# the reader answers by inflating that copy).
# MEMORY_MAX (such as 256M; needs root) runs the server in a memory cgroup
# with that limit, as a container would, and reports the cgroup's peak and
# out-of-memory kills.
# PostgreSQL runs use a new database folio_bench_<random> on 127.0.0.1:5432
# as user postgres (trust auth), dropped at the end.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
EVERY=${EVERY:-10}
IMPORT_TIMEOUT=${IMPORT_TIMEOUT:-900}
READER_CACHE=${READER_CACHE:-}
SHOW_MEMORY=${SHOW_MEMORY:-}
MEMORY_MAX=${MEMORY_MAX:-}
ACCEPT_GZIP=${ACCEPT_GZIP-1}
export ACCEPT_GZIP
pg_admin_url=postgres://postgres@127.0.0.1:5432

# shellcheck source=bench/lib.sh
. bench/lib.sh
parse_stores "${1:-both}" 22

case $EVERY in '' | *[!0-9]* | 0) die "EVERY must be a positive number" ;; esac
memory_max_bytes=
if [ -n "$MEMORY_MAX" ]; then
  memory_max_bytes=$(numfmt --from=iec "$MEMORY_MAX" 2>/dev/null) || die "MEMORY_MAX must be a size such as 256M"
fi
need_tools curl jq

tmp=$(mktemp -d)
server_pid=
static_pid=
zip_pid=
wrk_pid=
databases=()
cgroup_dir=
cgroups=()

cleanup() {
  [ -z "$wrk_pid" ] || kill "$wrk_pid" 2>/dev/null || true
  stop_pid "$server_pid"
  stop_pid "$static_pid"
  stop_pid "$zip_pid"
  for db in "${databases[@]}"; do
    psql -X -q -w -d "$pg_admin_url/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" </dev/null ||
      echo "warning: could not drop database $db" >&2
  done
  for cg in "${cgroups[@]}"; do cgroup_remove "$cg"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "building folio, bench/gencorpus and bench/staticserve"
go build -o "$tmp/folio" ./cmd/folio
go build -o "$tmp/gencorpus" ./bench/gencorpus
go build -o "$tmp/staticserve" ./bench/staticserve

clk_tck=$(getconf CLK_TCK)

# wait_listen PID OUT: waits for "listening on http://ADDR" in OUT and prints
# ADDR.

# start_static DIR: serves DIR with bench/staticserve; sets static_pid and
# static_url.
start_static() {
  "$tmp/staticserve" -dir "$1" ${ACCEPT_GZIP:+-gzip} >"$tmp/static.out" 2>"$tmp/static.err" &
  static_pid=$!
  static_url=http://$(wait_listen "$static_pid" "$tmp/static.out")
}

api() {
  curl -fsS -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+--data "$3"} "$base_url$2"
}

rows=()
notes=()

# run_wrk STORE WHAT URL PID: runs wrk on the URL set at URL while sampling
# process PID, and adds a table row.
run_wrk() {
  local store=$1 what=$2 url=$3 pid=$4 out=$tmp/wrk.out
  say "$store: $what ($DURATION)"
  measure_wrk "$pid" "$out" -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency --timeout 10s -s "$tmp/pages.lua" "$url"
  rows+=("| $store | $what | $rps | $kb | $p50 | $p99 | $cpu_us | $(mb "$max_rss") | ${non2xx:-0} |")
  printf '   %s req/s, %s/s, p50 %s, p99 %s, %s µs CPU/request, non-2xx %s\n' \
    "$rps" "$kb" "$p50" "$p99" "$cpu_us" "${non2xx:-0}" >&2
}

say "generating 10,100 pages of ~500 words with bench/gencorpus"
mkdir -p "$tmp/www"
"$tmp/gencorpus" -folders 100 -pages 100 -words 500 -seed 2 -o "$tmp/www/docs.zip"
"$tmp/staticserve" -dir "$tmp/www" >"$tmp/zip.out" 2>"$tmp/zip.err" &
zip_pid=$!
zip_url=http://$(wait_listen "$zip_pid" "$tmp/zip.out")/docs.zip

bench_store() {
  local store=$1 store_args=()
  case $store in
    sqlite)
      mkdir -p "$tmp/data-$store"
      store_args=(--data "$tmp/data-$store")
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
  [ -z "$READER_CACHE" ] || store_args+=(--reader-cache "$READER_CACHE")
  local wrap=()
  if [ -n "$memory_max_bytes" ]; then
    cgroup_create "folio-bench-$store-$$" "$memory_max_bytes"
    cgroups+=("$cgroup_dir")
    wrap=(cgroup_run "$cgroup_dir")
    say "$store: the server runs in $cgroup_dir, limited to $MEMORY_MAX"
  fi
  say "$store: starting folio serve"
  "${wrap[@]}" "$tmp/folio" serve --addr 127.0.0.1:0 --rate-limit-token 0 --rate-limit-address 0 --access-log=false --log-level warn --import-allow-private \
    "${store_args[@]}" >"$tmp/server.out" 2>"$tmp/server.err" &
  server_pid=$!
  base_url=http://$(wait_listen "$server_pid" "$tmp/server.out")
  token=$(grep -oE 'folio_[A-Za-z0-9]{43}' "$tmp/server.out" | head -1) || true
  [ -n "$token" ] || die "no bootstrap token in the output of folio serve"
  local org space site t0
  org=$(api GET /v1/orgs | jq -r '.items[0].id')
  space=$(api POST "/v1/orgs/$org/spaces" '{"title":"Handbook"}' | jq -r .id)
  say "$store: importing the corpus"
  t0=$(date +%s)
  curl -fsS -o /dev/null --max-time "$IMPORT_TIMEOUT" -X POST -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' --data "{\"source\":\"zip\",\"url\":\"$zip_url\"}" \
    "$base_url/v1/spaces/$space/content/import" || {
    [ -z "$cgroup_dir" ] || say "$store: $(cgroup_report "$cgroup_dir")"
    die "the import failed"
  }
  say "$store: imported in $(($(date +%s) - t0)) s"
  [ -z "$cgroup_dir" ] || say "$store: after the import: $(cgroup_report "$cgroup_dir")"
  [ -z "$SHOW_MEMORY" ] || say "$store: after the import: RSS $(mb "$(rss_kb "$server_pid")") MB (peak so far $(mb "$(hwm_kb "$server_pid")") MB)"
  site=$(api POST "/v1/orgs/$org/sites" "{\"title\":\"Handbook\",\"spaces\":[\"$space\"]}" | jq -r .id)
  api POST "/v1/orgs/$org/sites/$site/publish" >/dev/null
  api GET "/v1/spaces/$space/content/pages" >"$tmp/pages.json"
  jq -r --arg p "/sites/$site/" --argjson every "$EVERY" \
    '[.pages[].pages[]?.path] | to_entries[] | select(.key % $every == 0) | $p + .value' \
    "$tmp/pages.json" >"$tmp/paths.txt"
  local n
  n=$(wc -l <"$tmp/paths.txt")
  [ "$n" -gt 0 ] || die "no pages in the folders of the imported space"
  say "$store: copying $n reader pages to static files"
  rm -rf "$tmp/static"
  local path bytes=0
  while IFS= read -r path; do
    mkdir -p "$tmp/static$(dirname "$path")"
    curl -fsS -o "$tmp/static$path" "$base_url$path" || die "GET $path failed"
    bytes=$((bytes + $(stat -c %s "$tmp/static$path")))
    if [ -n "$ACCEPT_GZIP" ]; then gzip -6 -k -n "$tmp/static$path"; fi
  done <"$tmp/paths.txt"
  say "$store: $((bytes / n)) bytes per page on average"
  write_paths_lua "$tmp/pages.lua" <"$tmp/paths.txt"
  start_static "$tmp/static"
  if [ -n "$SHOW_MEMORY" ]; then
    local live
    live=$(curl -fsS "$base_url/metrics" | awk '$1 == "go_gc_heap_live_bytes" { printf "%.1f", $2 / 1048576 }') || live='?'
    say "$store: before the reader runs: RSS $(mb "$(rss_kb "$server_pid")") MB (peak so far $(mb "$(hwm_kb "$server_pid")") MB), live heap $live MiB"
    grep -E '^Rss(Anon|File)' "/proc/$server_pid/status" | sed 's/^/   /' >&2 || true
    curl -fsS "$base_url/metrics" | grep -E '^(folio_cache_size|folio_reader_cache_bytes|go_memstats_heap_(sys|released|inuse)_bytes|go_memstats_next_gc_bytes|go_memstats_(stack|mspan|other|gc)_sys_bytes)' | sed 's/^/   /' >&2 || true
  fi

  run_wrk "$store" "reader, $n pages" "$base_url$(head -1 "$tmp/paths.txt")" "$server_pid"
  run_wrk "$store" "http.FileServer, same $n pages" "$static_url$(head -1 "$tmp/paths.txt")" "$static_pid"
  run_wrk "$store" "reader again" "$base_url$(head -1 "$tmp/paths.txt")" "$server_pid"
  if [ -n "$cgroup_dir" ]; then
    notes+=("$store: the server ran in a memory cgroup limited to $MEMORY_MAX: $(cgroup_report "$cgroup_dir"); it started with: $(grep -E '^folio: (memory|caches)' "$tmp/server.out" | tr '\n' ' ')")
    say "${notes[-1]}"
  fi
  stop_pid "$static_pid"
  static_pid=
  stop_pid "$server_pid"
  server_pid=
}

for store in "${stores[@]}"; do
  if [ "$store" = postgres ] && ! psql -X -q -w -d "$pg_admin_url/postgres" -c 'SELECT 1' >/dev/null 2>&1 </dev/null; then
    [ "$mode" = both ] || die "PostgreSQL does not accept connections as postgres on 127.0.0.1:5432"
    echo "warning: PostgreSQL is not reachable on 127.0.0.1:5432: skipping the postgres runs" >&2
    continue
  fi
  bench_store "$store"
done

encoding="no Accept-Encoding"
[ -z "$ACCEPT_GZIP" ] || encoding="Accept-Encoding: gzip"
report=$(
  echo "# folio reader benchmark, $(date '+%Y-%m-%d %H:%M:%S %Z')"
  echo
  echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)'), $(go version | cut -d' ' -f3-), $(nproc) CPUs, $(uname -sr)"
  echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on the same machine, $encoding; a published space of 10,100 pages (bench/gencorpus), every ${EVERY}th page of its folders"
  echo
  echo "| store | server | req/s | transfer/s | p50 | p99 | CPU µs/req | max RSS MB | non-2xx |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  if [ "${#notes[@]}" -gt 0 ]; then
    echo
    printf -- '- %s\n' "${notes[@]}"
  fi
)
mkdir -p bench/results
file=bench/results/reader-$(date +%Y%m%d-%H%M%S).md
printf '%s\n' "$report" >"$file"
echo
printf '%s\n' "$report"
echo
echo "written to $file"
