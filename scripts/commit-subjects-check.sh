#!/usr/bin/env bash
# Commit subjects of at most 72 characters, so `git log --oneline` reads as a list of changes
# (the details belong in the body). Checked for the commits after RULE_SINCE, the commit the
# rule was adopted at (issue 23); the history before it is left as it was written.
set -euo pipefail
cd "$(dirname "$0")/.."

RULE_SINCE=77da3fa
MAX=72

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "not a git checkout: no commits to check"
  exit 0
fi
if ! git cat-file -e "$RULE_SINCE^{commit}" 2>/dev/null; then
  echo "error: commit $RULE_SINCE is not in this clone's history (a shallow clone?): fetch it" >&2
  exit 1
fi

long=$(git log --format='%h %s' "$RULE_SINCE..HEAD" | awk -v max="$MAX" '
  { subject = substr($0, index($0, " ") + 1) }
  length(subject) > max { printf "%s (%d characters)\n", $0, length(subject) }')
checked=$(git rev-list --count "$RULE_SINCE..HEAD")
if [[ -n $long ]]; then
  echo "error: commit subjects longer than $MAX characters (say what changed in the subject," >&2
  echo "the why in the body; rewrite them before they land):" >&2
  echo "$long" >&2
  exit 1
fi
echo "$checked commits since $RULE_SINCE: every subject fits in $MAX characters"
