# Shell functions shared by bench/load.sh and bench/reader.sh (sourced).
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
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
LUA
  } >"$1"
}
