#!/usr/bin/env bash
# Puts Debian's librpma.so.0 for one architecture, and its copyright notice (BSD-3-Clause), into
# the jar's native directory, beside the JNI library that links against it: users then need
# only rdma-core (libibverbs1, librdmacm1) installed. librpma was discontinued upstream in 2023;
# Debian's package is the maintained binary. Called by the Makefile.
#
#   bundle-librpma.sh DEB_ARCH OUT_DIR     e.g. amd64 target/classes/META-INF/native/linux-x86_64
#
# The .deb comes from `apt-get download` (never committed) and is kept in the user's cache,
# named by its version, so later builds (mvn -o too) reuse it. Needs the architecture known to
# dpkg and apt's lists: ./dev setup does both.
set -euo pipefail
arch=$1 out=$2
pkg=librpma0:$arch
cache="${XDG_CACHE_HOME:-$HOME/.cache}/vertx-rpma/librpma"
mkdir -p "$cache" "$out"

version=$(apt-cache policy "$pkg" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
if [[ -n $version && $version != "(none)" ]]; then
  deb="$cache/librpma0_${version//:/%3a}_$arch.deb"
  if [[ ! -s $deb ]]; then
    tmp=$(mktemp -d "$cache/.download.XXXXXX")
    # as root apt warns that its sandbox user cannot write here: harmless
    if ! (cd "$tmp" && apt-get download -q "$pkg=$version" 2>&1 | grep -v unsandboxed >&2); then
      rm -rf "$tmp"
      echo "bundle-librpma: 'apt-get download $pkg=$version' failed: apt's lists may be" \
        "missing or old (as root: apt-get update), or Debian's mirror unreachable" >&2
      exit 1
    fi
    # atomic: two builds at once (two worktrees) never see half a file
    mv "$tmp"/*.deb "$deb"
    rm -rf "$tmp"
  fi
else
  # apt does not know the package (lists not updated, offline): the newest one cached before
  deb=$(find "$cache" -maxdepth 1 -name "librpma0_*_$arch.deb" | sort -V | tail -n 1)
  if [[ -z $deb ]]; then
    echo "bundle-librpma: apt knows no $pkg and none is cached in $cache. Run ./dev setup" \
      "(as root: dpkg --add-architecture $arch; apt-get update)" >&2
    exit 1
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
lib=$(find "$tmp/usr/lib" -name 'librpma.so.0' | head -n 1)
[[ -n $lib ]] || { echo "bundle-librpma: no librpma.so.0 in $deb" >&2; exit 1; }
# the real file, not the symlink; its name is the soname the JNI library's NEEDED entry names
cp "$(readlink -f "$lib")" "$out/librpma.so.0.tmp"
mv "$out/librpma.so.0.tmp" "$out/librpma.so.0"
cp "$tmp/usr/share/doc/librpma0/copyright" "$out/librpma.copyright"
# the package's version, which the bundled file's name does not carry: the doctor reports it
dpkg-deb -f "$deb" Version >"$out/librpma.version"
