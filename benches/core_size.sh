#!/usr/bin/env bash
# The library core (`--no-default-features`): how many crates it pulls in, whether any of them
# needs a C compiler, how long a clean release build of it takes, and the stripped size of the
# smallest program built on it (benches/core/level.rs: one level, printed).
#
#   benches/core_size.sh [TARGET_DIR]
#
# The clean build goes to TARGET_DIR (default /tmp/core-clean, removed first) so the project's
# own target/ is untouched; run it on an idle machine for a build time that means something
# (the script prints the load average before and after).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/core-clean}

crates=$(cargo tree --no-default-features -e normal --prefix none | sed 's/ (\*)$//' |
    sort -u | grep -vc '^batchgen ')
echo "core crates (cargo tree --no-default-features -e normal, batchgen excluded): $crates"
c_builds=$(cargo tree --no-default-features -e normal,build --prefix none |
    grep -Ec '^(cc|cmake|pkg-config) |-sys ' || true)
echo "crates that build C (cc, cmake, pkg-config, *-sys), build deps included: $c_builds"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$dir"
start=$(date +%s.%N)
CARGO_TARGET_DIR=$dir cargo build --release --no-default-features --lib --quiet
end=$(date +%s.%N)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v a="$start" -v b="$end" 'BEGIN { printf "clean core build (release, lib): %.1f s\n", b - a }'

CARGO_TARGET_DIR=$dir cargo build --release --no-default-features --example level --quiet
bin=$dir/release/examples/level
strip -o "$dir/level.stripped" "$bin"
echo "example 'level' (release, stripped): $(stat -c %s "$dir/level.stripped") bytes"
"$bin" >/dev/null
