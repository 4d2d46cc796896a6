#!/usr/bin/env bash
# Lighthouse scores of the app's pages, and how soon its editor is ready.
#
#   bench/lighthouse-app.sh
#
# It starts a real `folio serve` (SQLite, fresh data folder), imports the
# small site under bench/lighthouse/ into a space, adds a long generated
# page (LARGE_BLOCKS paragraphs, headings, lists and code blocks), opens a
# change request that rewrites part of a page, with a comment, and signs
# in with the first admin's one-time link (the session cookie). Then:
#
# 1. Lighthouse (npm `lighthouse`, fetched once into ~/.cache/folio, as
#    bench/lighthouse.sh does, with Debian's chromium), defaults (mobile,
#    simulated throttling), on the sign-in page (signed out), a space's page,
#    the change request's page, the edit view, and the organization's
#    members, site customization and settings pages (signed in: the session
#    cookie goes in --extra-headers), and the join page of an invite link
#    (signed out: it offers to create an account), in the light and the dark theme
#    (--blink-settings=preferredColorScheme). It prints the four category
#    scores and the accessibility audits that failed.
# 2. bench/editorready: the time from navigation to the editor's ready
#    mark, RUNS times per page, cold and warm cache, on loopback without
#    throttling, for a typical page, the long configuration page and the
#    generated one.
#
# The tables go to bench/results/app-DATE.md. Run by hand; CI does not run it.
#
# Environment: LIGHTHOUSE_VERSION (default 12.8.2), CHROME_PATH (default
# /usr/bin/chromium), RUNS (default 10), LARGE_BLOCKS (default 400),
# REPORTS (a folder to keep the JSON reports in), SKIP_LIGHTHOUSE or
# SKIP_EDITOR (set: skip that part), ONLY (Lighthouse only on the pages
# whose name contains it: signin, space, change request, edit view,
# members, customize, settings, join).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="/usr/local/go/bin:$PATH"

LIGHTHOUSE_VERSION=${LIGHTHOUSE_VERSION:-12.8.2}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
RUNS=${RUNS:-10}
LARGE_BLOCKS=${LARGE_BLOCKS:-400}

# shellcheck source=bench/lib.sh
. bench/lib.sh
need_tools curl jq node npm python3

[ -n "${SKIP_LIGHTHOUSE:-}" ] || install_lighthouse

tmp=$(mktemp -d)
server_pid=
zip_pid=
trap 'stop_pid "$server_pid"; stop_pid "$zip_pid"; rm -rf "$tmp"' EXIT


say "building folio, bench/staticserve and bench/editorready"
go build -o "$tmp/folio" ./cmd/folio
go build -o "$tmp/staticserve" ./bench/staticserve
go build -o "$tmp/editorready" ./bench/editorready

mkdir -p "$tmp/www"
(cd bench/lighthouse && python3 -m zipfile -c "$tmp/www/site.zip" ./*.md)
# The long page: LARGE_BLOCKS blocks of prose, headings, lists and code.
python3 - "$LARGE_BLOCKS" >"$tmp/www/large.md" <<'PY'
import sys
n = int(sys.argv[1])
words = "folio space page block editor change request merge review site reader search import export".split()
out = ["# Reference", ""]
for i in range(n):
    kind = i % 10
    text = " ".join(words[(i * 7 + j) % len(words)] for j in range(40))
    if kind == 0:
        out += ["## Section %d" % (i // 10 + 1), ""]
    elif kind == 5:
        out += ["- %s" % text[:60], "- %s" % text[60:120], ""]
    elif kind == 8:
        out += ["```go", "func f%d() int { return %d }" % (i, i), "```", ""]
    else:
        out += [text.capitalize() + ".", ""]
print("\n".join(out))
PY
"$tmp/staticserve" -dir "$tmp/www" >"$tmp/zip.out" 2>"$tmp/zip.err" &
zip_pid=$!
www=http://$(wait_listen "$zip_pid" "$tmp/zip.out")

mkdir -p "$tmp/data"
"$tmp/folio" serve --addr 127.0.0.1:0 --access-log=false --log-level warn --import-allow-private --data "$tmp/data" \
  >"$tmp/server.out" 2>"$tmp/server.err" &
server_pid=$!
base_url=http://$(wait_listen "$server_pid" "$tmp/server.out")
token=$(grep -oE 'folio_[A-Za-z0-9]{43}' "$tmp/server.out" | head -1) || true
[ -n "$token" ] || die "no bootstrap token in the output of folio serve"
link=$(grep -oE '/signin/link/[^[:space:]]+' "$tmp/server.out" | head -1) || true
[ -n "$link" ] || die "no sign-in link in the output of folio serve"
api() {
  curl -fsS -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+--data "$3"} "$base_url$2"
}
org=$(api GET /v1/orgs | jq -r '.items[0].id')
space=$(api POST "/v1/orgs/$org/spaces" '{"title":"Aurora"}' | jq -r .id)
api POST "/v1/spaces/$space/content/import" "{\"source\":\"zip\",\"url\":\"$www/site.zip\"}" >/dev/null
api POST "/v1/spaces/$space/content/import" "{\"source\":\"markdown\",\"url\":\"$www/large.md\"}" >/dev/null
page_id() { api GET "/v1/spaces/$space/content" | jq -r --arg t "$1" '[.. | objects | select(.title? == $t and .type? == "document") | .id][0]'; }
started=$(page_id "Getting started")
config=$(page_id "Configuration")
large=$(page_id "Reference")
for id in "$started" "$config" "$large"; do
  [ -n "$id" ] && [ "$id" != null ] || die "a page of the imported space is missing"
done

# A change request rewriting the first page, with a comment.
cr=$(api POST "/v1/spaces/$space/change-requests" '{"subject":"Clarify the first steps"}' | jq -r .number)
sed 's/Welcome/Welcome, reader,/; s/install/install and configure/' bench/lighthouse/README.md >"$tmp/www/changed.md"
api POST "/v1/spaces/$space/change-requests/$cr/content/page/$started/import" \
  "{\"source\":\"markdown\",\"url\":\"$www/changed.md\"}" >/dev/null
api POST "/v1/spaces/$space/change-requests/$cr/comments" '{"body":{"markdown":"Please also mention the reviewers."}}' >/dev/null

# A site of the space, for its customization page; and an invite link, so
# that the members page shows one.
site=$(api POST "/v1/orgs/$org/sites" "{\"title\":\"Aurora docs\",\"spaces\":[\"$space\"]}" | jq -r .id)
[ -n "$site" ] && [ "$site" != null ] || die "no site"
invite=$(api POST "/v1/orgs/$org/link-invites" '{"role":"edit"}' | jq -r .id)
[ -n "$invite" ] && [ "$invite" != null ] || die "no invite link"

# Sign in with the one-time link: the session cookie.
curl -fsS -o /dev/null -c "$tmp/jar" -H "Origin: $base_url" -H "Sec-Fetch-Site: same-origin" \
  --data-urlencode "token=${link#/signin/link/}" "$base_url/signin/link"
session=$(awk '$6 == "folio_session" { print $7 }' "$tmp/jar")
[ -n "$session" ] || die "signing in with the link gave no session cookie"

lh_rows=()
if [ -z "${SKIP_LIGHTHOUSE:-}" ]; then
  pages=("signin|/signin" "space|/s/$space/getting-started" "change request|/s/$space/~/changes/$cr" "edit view|/s/$space/~/pages/$started/edit"
    "members|/o/$org/members" "customize|/o/$org/sites/$site/customize" "settings|/o/$org/settings" "join|/join/$org/$invite")
  for entry in "${pages[@]}"; do
    name=${entry%%|*}
    path=${entry#*|}
    [[ $name == *"${ONLY:-}"* ]] || continue
    cookie="folio_session=$session"
    [ "$name" != signin ] && [ "$name" != join ] || cookie=
    curl -fsS -o /dev/null ${cookie:+-H "Cookie: $cookie"} "$base_url$path" || die "GET $path failed"
    for theme in light dark; do
      say "lighthouse: $name ($theme)"
      scheme=1
      [ "$theme" = light ] || scheme=0
      out=$tmp/lh-${name// /-}-$theme.json
      node "$lh_dir/node_modules/lighthouse/cli/index.js" "$base_url$path" --quiet --output=json --output-path="$out" \
        ${cookie:+--extra-headers="{\"Cookie\":\"$cookie\"}"} \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu --blink-settings=preferredColorScheme=$scheme" >/dev/null 2>"$tmp/lh.err" ||
        { cat "$tmp/lh.err" >&2; die "lighthouse failed on $path"; }
      final=$(jq -r '.finalDisplayedUrl // .finalUrl' "$out")
      [[ $final == *"$path"* ]] || die "lighthouse ended on $final, not $path (signed out?)"
      lh_rows+=("$(jq -r --arg page "$name" --arg theme "$theme" '"| \($page) | \($theme) | " +
        ([.categories.performance, .categories.accessibility, .categories["best-practices"], .categories.seo]
          | map((.score * 100 | round | tostring)) | join(" | ")) + " | " +
        ([.categories.accessibility.auditRefs[].id as $id | .audits[$id] | select(.score != null and .score < 1) | .id] | join(", ")) + " |"' "$out")")
      printf '   %s\n' "${lh_rows[-1]}" >&2
      [ -z "${REPORTS:-}" ] || { mkdir -p "$REPORTS" && cp "$out" "$REPORTS/"; }
    done
  done
fi

ready=
if [ -z "${SKIP_EDITOR:-}" ]; then
  say "editor ready: $RUNS runs per page, cold and warm"
  ready=$("$tmp/editorready" -base "$base_url" -cookie "$session" -runs "$RUNS" \
    -page "typical page=/s/$space/~/pages/$started/edit" \
    -page "configuration (long)=/s/$space/~/pages/$config/edit" \
    -page "generated ($LARGE_BLOCKS blocks)=/s/$space/~/pages/$large/edit")
  echo "$ready" >&2
fi

mkdir -p bench/results
result=bench/results/app-$(date +%Y-%m-%d).md
{
  echo "# The app, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "$(chromium --version 2>/dev/null || echo chromium), $(nproc) cores"
  if [ ${#lh_rows[@]} -gt 0 ]; then
    echo
    echo "Lighthouse $LIGHTHOUSE_VERSION, mobile (simulated throttling)"
    echo
    echo "| page | theme | performance | accessibility | best practices | SEO | accessibility audits failed |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    printf '%s\n' "${lh_rows[@]}"
  fi
  if [ -n "$ready" ]; then
    echo
    echo "Editor ready (navigation start to the folio-editor-ready mark), $RUNS runs, loopback, no throttling"
    echo
    echo "$ready"
  fi
} | tee "$result"
say "written to $result"
