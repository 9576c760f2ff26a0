#!/usr/bin/env bash
# Reproducible build check: the library's jars (classes + JNI library, sources, javadoc) must
# be byte-identical when built from two copies of the working tree at different paths (of
# different lengths, so a path leaking into the .so or a jar cannot hide). Builds the library
# module only, offline, without tests (the main build has already fetched every plugin).
# On a difference, prints the entries that differ (content or zip metadata).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# Nothing here reads stdin (Maven's exec plugin breaks on a closed one in CI).
exec </dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/repro-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
a="$work/a"
b="$work/copy-b-with-a-longer-path"

# The working tree as it is (uncommitted changes included, unlike a clone), minus build output.
copy_tree() {
  mkdir -p "$1"
  tar -C "$ROOT" --exclude=./.git --exclude=target -cf - . | tar -C "$1" -xf -
}

# The build's output (make echoes every gcc line) is shown only when it fails.
build() {
  # maven.test.skip: not even the tests are compiled; the jars do not depend on them.
  if ! (cd "$1" && mvn -B -q -o package -Dmaven.test.skip=true -pl library -am) \
    >"$1.log" 2>&1; then
    sed 's/\x1b\[0m//g' "$1.log"
    echo "the build in $1 failed"
    exit 1
  fi
}

# Zip listing, one entry a line: permissions, sizes, date and name (order matters too).
listing() {
  if command -v zipinfo >/dev/null; then zipinfo -l "$1"; else jar tvf "$1"; fi | sed 1d
}

# Why two jars differ: entries whose content differs, then entries whose metadata differs.
explain() {
  local ja=$1 jb=$2
  mkdir -p "$work/xa" "$work/xb"
  rm -rf "${work:?}"/xa/* "${work:?}"/xb/*
  (cd "$work/xa" && jar xf "$ja") && (cd "$work/xb" && jar xf "$jb")
  echo "  content:"
  diff -rq "$work/xa" "$work/xb" | sed "s|$work/||g; s|^|    |" || true
  echo "  zip entries (< $a, > $b):"
  diff <(listing "$ja") <(listing "$jb") | sed 's/^/    /' || true
}

copy_tree "$a"
copy_tree "$b"
build "$a"
build "$b"

failed=0
shopt -s nullglob
jars=("$a"/library/target/vertx-rpma-*.jar)
((${#jars[@]} > 0)) || { echo "no library jar was built"; exit 1; }
for ja in "${jars[@]}"; do
  name=$(basename "$ja")
  jb="$b/library/target/$name"
  if [[ ! -e $jb ]]; then
    echo "DIFFERENT $name: missing in the second build"
    failed=1
  elif cmp -s "$ja" "$jb"; then
    echo "identical $name $(sha256sum <"$ja" | cut -c1-16)"
  else
    echo "DIFFERENT $name"
    explain "$ja" "$jb"
    failed=1
  fi
done
exit "$failed"
