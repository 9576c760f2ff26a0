#!/usr/bin/env bash
# ./dev release-check: builds the Maven Central bundle as a release would (-Prelease: every
# artifact signed), with a throwaway gpg key made in a temporary GNUPGHOME, deployed into a
# local staging directory (target/staging, the repository layout Central's bundle upload takes)
# and zipped (target/central-bundle.zip); then scripts/release_check.py checks it: the modules
# published and those not (examples, bench), checksums, signatures, POM fields, the natives.
# Host only, no device; ~3-5 minutes (a full build of every module). ./dev test runs it when
# RPMA_RELEASE_CHECK=1.
set -euo pipefail
cd "$(dirname "$0")/.."
staging="$PWD/target/staging"
rm -rf "$staging" target/central-bundle.zip
mkdir -p target

GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
# no passphrase, one day: it signs this bundle and nothing else
gpg --batch --quiet --passphrase '' --quick-gen-key \
  'vertx-rpma release check (throwaway) <release-check@invalid>' ed25519 sign 1d
fingerprint=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')

# not -o: the deploy plugin refuses offline mode even for a file repository (nothing new is
# downloaded after the normal build); -DskipTests: the tests ran there already
mvn -B -q -Prelease -DskipTests deploy -Dgpg.keyname="$fingerprint" \
  -DaltDeploymentRepository="staging::file://$staging" 2>&1 | sed 's/\x1b\[0m//g' |
  grep -vE '^(gcc|aarch64-linux-gnu-gcc|\./bundle-librpma\.sh|make: )' || true
[[ -d $staging/dev ]] || { echo "release-check: the build deployed nothing" >&2; exit 1; }
(cd "$staging" && zip -q -r -X ../central-bundle.zip dev)

python3 scripts/release_check.py "$staging" pom.xml
