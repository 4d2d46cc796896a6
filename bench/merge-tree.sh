#!/usr/bin/env bash
# merge-tree.sh times `git merge-tree --write-tree main branch` on content
# shaped like BenchmarkChangeRequestMerge's (internal/app): PAGES Markdown
# files of about 500 words (ten paragraphs of 50 words), in folders of 100
# as the page tree (each top page a folder with its README.md and 99 child
# pages), a base commit, a branch editing the last paragraph of 10 files,
# and main editing one other file. It is the anchor the change request
# merge figures in docs/performance.md are set beside.
#
# Usage: bench/merge-tree.sh [PAGES] [RUNS]   (defaults: 10000 50)
# Uses hyperfine when installed, a bash loop otherwise. Writes only under
# a temporary directory, removed on exit.
set -euo pipefail

pages=${1:-10000}
runs=${2:-50}
fan=100
if (( pages % fan != 0 )); then
	echo "PAGES must be a multiple of $fan" >&2
	exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/merge-tree.XXXXXX")
trap 'rm -rf "$dir"' EXIT
repo=$dir/repo
mkdir "$repo"

# No user or system configuration: the figures do not depend on the
# machine's git settings, and nothing is written outside $dir.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$dir
g() { git -C "$repo" -c user.name=bench -c user.email=bench@example.invalid -c gc.auto=0 "$@"; }

g init -q -b main

# Page p<i> is folder p<i>/ with README.md; its children are p<i>/p<i>-<j>.md.
# The words are unique per page and paragraph, as in the Go benchmark.
awk -v pages="$pages" -v fan="$fan" -v root="$repo" 'BEGIN {
	for (i = 0; i < pages / fan; i++) {
		folder = root "/p" i
		system("mkdir -p " folder)
		for (j = -1; j < fan - 1; j++) {
			if (j < 0) { id = "p" i; file = folder "/README.md" }
			else { id = "p" i "-" j; file = folder "/" id ".md" }
			printf "# %s\n", id > file
			for (p = 0; p < 10; p++) {
				line = ""
				for (w = 0; w < 50; w++) line = line (w ? " " : "") id "-w" p "-" w
				printf "\n%s\n", line > file
			}
			close(file)
		}
	}
}'
g add -A
g commit -q -m base

# The last line of a page is its tenth paragraph.
edit() { sed -i '$ s/.*/'"$2"'/' "$repo/$1"; }

g checkout -q -b branch
for k in $(seq 0 9); do
	edit "p$((k * 7 % (pages / fan)))/p$((k * 7 % (pages / fan)))-$k.md" "edited in the change request"
done
g commit -q -am "edit 10 pages"
g checkout -q main
edit "p0/p0-50.md" "edited live"
g commit -q -am "edit one other page"
# Pack, as a repository that has lived a while would be.
g repack -adq

echo "git: $(git --version); pages: $pages; files in the tree: $(g ls-files | wc -l)"
echo "merged tree: $(g merge-tree --write-tree main branch)"

cmd="git -C $repo merge-tree --write-tree main branch"
if command -v hyperfine >/dev/null; then
	hyperfine --style basic --shell=none --warmup 3 --runs "$runs" --export-json "$dir/hyperfine.json" "$cmd"
	# hyperfine reports the mean and the range; the median is what the Go
	# benchmark's p50-ms is set beside.
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("median: %.1f ms" % (r["median"]*1000))' "$dir/hyperfine.json" 2>/dev/null || true
else
	times=()
	for _ in $(seq 1 "$runs"); do
		start=$(date +%s%N)
		$cmd >/dev/null
		times+=($(( ($(date +%s%N) - start) / 1000 )))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { printf "runs: %d, median: %.1f ms, min: %.1f ms, max: %.1f ms\n", NR, t[int((NR + 1) / 2)] / 1000, t[1] / 1000, t[NR] / 1000 }'
fi
