# Shell functions shared by the bench scripts (sourced).
# shellcheck shell=bash

say() { printf '== %s\n' "$*" >&2; }
die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}

# need_tools TOOL...: fails unless each tool is installed; installs wrk with
# apt-get when it is missing.
# parse_stores sets mode and stores from a script's argument: sqlite,
# postgres or both; -h or --help prints the script's header comment (its
# lines 2 to $2) and exits.
parse_stores() {
  mode=$1
  case $mode in
    sqlite) stores=(sqlite) ;;
    postgres) stores=(postgres) ;;
    both) stores=(sqlite postgres) ;;
    -h | --help)
      sed -n "2,$2p" "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: $0 [sqlite|postgres|both]" >&2
      exit 2
      ;;
  esac
}

need_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is required"
  done
  if ! command -v wrk >/dev/null 2>&1; then
    say "installing wrk with apt-get"
    local sudo=
    [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
    { $sudo apt-get install -y -qq wrk </dev/null || { $sudo apt-get update -qq && $sudo apt-get install -y -qq wrk </dev/null; }; } >/dev/null ||
      die "could not install wrk"
  fi
}

# cpu_ticks PID prints utime+stime of a process, in clock ticks.
cpu_ticks() {
  local stat
  stat=$(<"/proc/$1/stat")
  stat=${stat##*) } # the fields after "(comm) "
  # shellcheck disable=SC2086
  set -- $stat
  echo $((${12} + ${13}))
}

# rss_kb PID prints the resident set size of a process, in KiB.
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# hwm_kb PID prints the peak resident set size of a process, in KiB.
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# write_paths_lua FILE: writes a wrk script that GETs the paths read from
# stdin (one a line) in turn, each thread from its own starting point.
write_paths_lua() {
  {
    echo '-- GET these paths in turn.'
    echo 'local paths = {'
    local p
    while IFS= read -r p; do
      printf '  "%s",\n' "$p"
    done
    echo '}'
    cat <<'LUA'
i = 0 -- global, so that setup can give each thread its own start
local n = 0
setup = function(thread)
  n = n + 1
  thread:set("i", n * 7)
end
if os.getenv("ACCEPT_GZIP") ~= nil and os.getenv("ACCEPT_GZIP") ~= "" then
  wrk.headers["Accept-Encoding"] = "gzip" -- as browsers send it
end
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA
  } >"$1"
}

# measure_wrk PID OUT WRK-ARGS...: runs wrk with the arguments, its output
# in OUT, while sampling the RSS and CPU time of process PID, and sets
# requests, rps, kb (transfer per second), p50, p99, non2xx, cpu_us (CPU
# of PID per request) and max_rss (KB) from the run; socket errors go to
# stderr. It needs clk_tck (getconf CLK_TCK).
measure_wrk() {
  local pid=$1 out=$2 ticks0 ticks1 rss
  shift 2
  max_rss=0
  ticks0=$(cpu_ticks "$pid")
  wrk "$@" >"$out" 2>&1 &
  wrk_pid=$!
  while kill -0 "$wrk_pid" 2>/dev/null; do
    rss=$(rss_kb "$pid")
    [ "${rss:-0}" -gt "$max_rss" ] && max_rss=$rss
    sleep 0.1
  done
  wait "$wrk_pid" || {
    cat "$out" >&2
    die "wrk failed"
  }
  wrk_pid=
  ticks1=$(cpu_ticks "$pid")
  requests=$(awk '/requests in/ { print $1 }' "$out")
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out")
  kb=$(awk '/^Transfer\/sec:/ { print $2 }' "$out")
  p50=$(awk '$1 == "50%" { print $2 }' "$out")
  p99=$(awk '$1 == "99%" { print $2 }' "$out")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ { print $2 }' "$out")
  cpu_us=$(awk -v t="$((ticks1 - ticks0))" -v hz="$clk_tck" -v n="${requests:-0}" \
    'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e6 / n; else print "-" }')
  grep -E '^ *Socket errors' "$out" | sed 's/^/   /' >&2 || true
}

# mb prints KB as MB with one decimal.
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# wait_listen PID FILE: waits (30 s at most) until the process PID prints
# "listening on http://HOST:PORT" into FILE, which may not exist yet, and
# prints HOST:PORT. A process that exits first shows its $tmp/server.err.
wait_listen() {
  local re='listening on http://([0-9.]+:[0-9]+)' line
  for _ in $(seq 3000); do
    kill -0 "$1" 2>/dev/null || {
      cat "$tmp/server.err" >&2 2>/dev/null || true
      die "a server exited during start"
    }
    if [ -f "$2" ]; then
      while IFS= read -r line; do
        [[ $line =~ $re ]] && echo "${BASH_REMATCH[1]}" && return 0
      done <"$2"
    fi
    sleep 0.01
  done
  die "a server did not start within 30s"
}

# install_lighthouse: installs lighthouse@$LIGHTHOUSE_VERSION with npm into
# the cache folder once, and sets lh_dir to it.
install_lighthouse() {
  lh_dir=${XDG_CACHE_HOME:-$HOME/.cache}/folio/lighthouse-$LIGHTHOUSE_VERSION
  [ -f "$lh_dir/node_modules/lighthouse/cli/index.js" ] && return 0
  say "installing lighthouse@$LIGHTHOUSE_VERSION into $lh_dir"
  mkdir -p "$lh_dir"
  (cd "$lh_dir" && npm install --no-audit --no-fund --loglevel=error "lighthouse@$LIGHTHOUSE_VERSION" </dev/null) >/dev/null ||
    die "could not install lighthouse with npm"
}

# cgroup_create NAME BYTES: makes a memory cgroup limited to BYTES (cgroup
# v2, or v1's memory controller), as a container runtime would, and sets
# cgroup_dir. Needs root.
cgroup_create() {
  local name=$1 bytes=$2
  [ "$(id -u)" -eq 0 ] || die "MEMORY_MAX needs root (it makes a memory cgroup)"
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    cgroup_dir=/sys/fs/cgroup/$name
    mkdir -p "$cgroup_dir" && echo "$bytes" >"$cgroup_dir/memory.max" || die "could not make cgroup $cgroup_dir"
  elif [ -d /sys/fs/cgroup/memory ]; then
    cgroup_dir=/sys/fs/cgroup/memory/$name
    mkdir -p "$cgroup_dir" && echo "$bytes" >"$cgroup_dir/memory.limit_in_bytes" || die "could not make cgroup $cgroup_dir"
  else
    die "no cgroup memory controller under /sys/fs/cgroup"
  fi
}

# cgroup_run DIR CMD...: becomes CMD (exec) inside the cgroup DIR from its
# start, so the program reads its limit as it would in a container. Run it
# in a background subshell (cgroup_run DIR CMD &): $! is then the program.
cgroup_run() {
  local dir=$1
  shift
  exec sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$dir" "$@"
}

# cgroup_report DIR: prints the cgroup's peak memory and out-of-memory kills.
cgroup_report() {
  local dir=$1 peak kills
  if [ -f "$dir/memory.peak" ]; then
    peak=$(<"$dir/memory.peak")
    kills=$(awk '$1 == "oom_kill" { print $2 }' "$dir/memory.events")
  else
    peak=$(<"$dir/memory.max_usage_in_bytes")
    kills=$(awk '$1 == "oom_kill" { print $2 }' "$dir/memory.oom_control")
  fi
  printf 'cgroup peak %s MB (page cache included), out-of-memory kills %s\n' "$((peak / 1048576))" "${kills:-0}"
}

# cgroup_remove DIR: removes the cgroup once its processes are gone.
cgroup_remove() {
  [ -n "$1" ] && [ -d "$1" ] || return 0
  for _ in $(seq 50); do
    rmdir "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "warning: could not remove cgroup $1" >&2
}

# stop_pid PID: stops a process (TERM, then KILL after 5 s) and reaps it;
# nothing when PID is empty.
stop_pid() {
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
