#!/usr/bin/env bash
# Lighthouse scores of the published reader.
#
#   bench/lighthouse.sh
#
# It starts a real `folio serve` (SQLite, fresh data folder), imports the
# small site under bench/lighthouse/ (a typical page, and a long page with
# code, tables, tabs and expandables), publishes it, and runs Lighthouse
# (npm `lighthouse`, fetched once into ~/.cache/folio, with Debian's
# chromium) with its defaults: mobile, simulated throttling. It prints the
# four category scores and CLS per page and per theme, and writes the table
# to bench/results/lighthouse-DATE.md. Run by hand; CI does not run it.
#
# Environment: LIGHTHOUSE_VERSION (default 12.8.2, the last that runs on
# Node 20), CHROME_PATH (default /usr/bin/chromium), REPORTS (a folder to
# keep the JSON reports in).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

LIGHTHOUSE_VERSION=${LIGHTHOUSE_VERSION:-12.8.2}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}

# shellcheck source=bench/lib.sh
. bench/lib.sh
need_tools curl jq node npm python3

install_lighthouse

tmp=$(mktemp -d)
server_pid=
zip_pid=
trap 'stop_pid "$server_pid"; stop_pid "$zip_pid"; rm -rf "$tmp"' EXIT


say "building folio and bench/staticserve"
go build -o "$tmp/folio" ./cmd/folio
go build -o "$tmp/staticserve" ./bench/staticserve

mkdir -p "$tmp/www"
(cd bench/lighthouse && python3 -m zipfile -c "$tmp/www/site.zip" ./*.md)
"$tmp/staticserve" -dir "$tmp/www" >"$tmp/zip.out" 2>"$tmp/zip.err" &
zip_pid=$!
zip_url=http://$(wait_listen "$zip_pid" "$tmp/zip.out")/site.zip

mkdir -p "$tmp/data"
"$tmp/folio" serve --addr 127.0.0.1:0 --access-log=false --log-level warn --import-allow-private --data "$tmp/data" \
  >"$tmp/server.out" 2>"$tmp/server.err" &
server_pid=$!
base_url=http://$(wait_listen "$server_pid" "$tmp/server.out")
token=$(grep -oE 'folio_[A-Za-z0-9]{43}' "$tmp/server.out" | head -1) || true
[ -n "$token" ] || die "no bootstrap token in the output of folio serve"
api() {
  curl -fsS -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+--data "$3"} "$base_url$2"
}
org=$(api GET /v1/orgs | jq -r '.items[0].id')
space=$(api POST "/v1/orgs/$org/spaces" '{"title":"Aurora"}' | jq -r .id)
api POST "/v1/spaces/$space/content/import" "{\"source\":\"zip\",\"url\":\"$zip_url\"}" >/dev/null
site=$(api POST "/v1/orgs/$org/sites" "{\"title\":\"Aurora docs\",\"spaces\":[\"$space\"]}" | jq -r .id)
api POST "/v1/orgs/$org/sites/$site/publish" >/dev/null

pages=("getting-started" "guides/configuration")
rows=()
for page in "${pages[@]}"; do
  url="$base_url/sites/$site/$page"
  curl -fsS -o /dev/null "$url" || die "GET $url failed"
  for theme in light dark; do
    say "lighthouse: $page ($theme)"
    out=$tmp/lh-${page//\//-}-$theme.json
    node "$lh_dir/node_modules/lighthouse/cli/index.js" "$url" --quiet --output=json --output-path="$out" \
      --extra-headers="{\"Cookie\":\"folio_theme=$theme\"}" \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu" >/dev/null 2>"$tmp/lh.err" ||
      { cat "$tmp/lh.err" >&2; die "lighthouse failed on $url"; }
    rows+=("$(jq -r --arg page "$page" --arg theme "$theme" '"| \($page) | \($theme) | " +
      ([.categories.performance, .categories.accessibility, .categories["best-practices"], .categories.seo]
        | map((.score * 100 | round | tostring)) | join(" | ")) +
      " | \(.audits["cumulative-layout-shift"].numericValue) | \(.audits["first-contentful-paint"].displayValue) | \(.audits["largest-contentful-paint"].displayValue) |"' "$out")")
    printf '   %s\n' "${rows[-1]}" >&2
    [ -z "${REPORTS:-}" ] || { mkdir -p "$REPORTS" && cp "$out" "$REPORTS/"; }
  done
done

mkdir -p bench/results
result=bench/results/lighthouse-$(date +%Y-%m-%d).md
{
  echo "# Lighthouse $LIGHTHOUSE_VERSION, mobile (simulated throttling), $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "$(chromium --version 2>/dev/null || echo chromium), $(nproc) cores"
  echo
  echo "| page | theme | performance | accessibility | best practices | SEO | CLS | FCP | LCP |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} | tee "$result"
say "written to $result"
