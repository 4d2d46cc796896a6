#!/bin/sh
# refresh.sh: fetch the vendored ProseMirror packages from the npm registry.
#
# Folio needs no npm to build or run: the editor's third-party JavaScript is
# committed here, one folder per package, holding the package's ESM build
# (the file its package.json names as "module", copied to index.js), its
# LICENSE, package.json and stylesheets. This script is the only
# place npm is used, by a maintainer, to refresh those folders. Edit the
# versions in PACKAGES (exact versions, never ranges), run it from anywhere,
# then rebuild the bundle with `go run ./internal/editor/build` and commit.
#
# Usage: sh internal/editor/js/vendor/refresh.sh
set -eu

PACKAGES="
orderedmap@2.1.1
rope-sequence@1.3.4
w3c-keyname@2.2.8
prosemirror-model@1.25.13
prosemirror-transform@1.12.6
prosemirror-state@1.4.4
prosemirror-view@1.42.9
prosemirror-commands@1.7.2
prosemirror-keymap@1.2.3
prosemirror-history@1.5.1
prosemirror-schema-list@1.6.0
prosemirror-inputrules@1.6.0
prosemirror-dropcursor@1.8.4
prosemirror-gapcursor@1.4.1
prosemirror-tables@1.8.5
"

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
	echo "# Vendored packages (written by refresh.sh; do not edit by hand)"
	echo "#"
	echo "# name version sha512-integrity-of-the-npm-tarball"
} >"$work/VERSIONS"

for spec in $PACKAGES; do
	name=${spec%@*}
	version=${spec##*@}
	(cd "$work" && npm pack --silent "$spec" >/dev/null)
	tarball="$work/$name-$version.tgz"
	mkdir -p "$work/$name"
	tar -xzf "$tarball" -C "$work/$name"
	pkg="$work/$name/package"
	rm -rf "${here:?}/$name"
	mkdir -p "$here/$name"
	# The ESM build only: the CommonJS build, sources and type declarations
	# are not used by the bundler.
	module=$(node -p 'const p = require(process.argv[1]); p.module || p.main' "$pkg/package.json")
	cp "$pkg/$module" "$here/$name/index.js"
	for extra in style/prosemirror.css style/tables.css style/gapcursor.css style/dropcursor.css; do
		if [ -f "$pkg/$extra" ]; then
			mkdir -p "$here/$name/$(dirname "$extra")"
			cp "$pkg/$extra" "$here/$name/$extra"
		fi
	done
	for lic in LICENSE LICENSE.md LICENSE.txt license; do
		if [ -f "$pkg/$lic" ]; then
			cp "$pkg/$lic" "$here/$name/LICENSE"
		fi
	done
	if [ ! -f "$here/$name/LICENSE" ]; then
		echo "refresh.sh: $name@$version ships no LICENSE file" >&2
		exit 1
	fi
	cp "$pkg/package.json" "$here/$name/package.json"
	integrity=$(openssl dgst -sha512 -binary "$tarball" | openssl base64 -A)
	echo "$name $version sha512-$integrity" >>"$work/VERSIONS"
done

cp "$work/VERSIONS" "$here/VERSIONS"
echo "refreshed $(grep -vc '^#' "$here/VERSIONS") packages into $here"
