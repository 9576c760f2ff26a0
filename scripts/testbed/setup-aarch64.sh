#!/usr/bin/env bash
# The aarch64 test-bed guest (./dev rdma --arch aarch64), prepared in $CACHE_DIR/aarch64 from
# Debian's arm64 packages (apt-get download + dpkg-deb -x, nothing installed, never committed):
#   kernel/   linux-image-*-arm64 unpacked, with modules.dep (depmod -b)
#   userland/ the arm64 programs the command runs: bash, the JDK, librpma, rdma-core's
#             libraries and the rxe provider, iproute2 (`rdma`), busybox for the rest. The
#             guest puts it over the host's / (read-only, 9p), so the repository, ~/.m2 and
#             the build output are where they are on the host, and the programs are arm64;
#   initramfs.cpio.gz, vmlinuz: busybox-static:arm64, the arm64 modules, guest-init as /init.
# Called by setup.sh (./dev setup) and by rdma.sh before an aarch64 boot; quick when all is
# there. Needs the arm64 dpkg architecture (setup.sh adds it) and qemu-system-aarch64.
#
#   setup-aarch64.sh   prepare what is missing
set -euo pipefail
# shellcheck source=scripts/testbed/lib.sh
source "$(dirname "$0")/lib.sh"
DEV_CMD=${DEV_CMD:-setup}
exec </dev/null
export PATH="$PATH:/usr/sbin:/sbin"

ARM_DIR="$CACHE_DIR/aarch64"
# Each program's shared libraries, checked with readelf after unpacking (check_needed): the
# JVM needs libstdc++, libgcc and zlib; iproute2's `rdma` libmnl, libbsd, libcap; libibverbs
# libnl. The JDK's graphics and sound libraries are left out: nothing headless loads them.
USERLAND_PACKAGES=(libc6 libgcc-s1 libstdc++6 zlib1g bash libtinfo6 busybox-static
  openjdk-17-jre-headless openjdk-17-jdk-headless librpma0 libibverbs1 ibverbs-providers
  librdmacm1 libnl-3-200 libnl-route-3-200 iproute2 libmnl0 libelf1 libbpf1 libcap2 libbsd0
  libmd0 libxtables12 libsmartcols1 libcap-ng0)
# From util-linux only the programs the device tests start (prlimit lowers a child's limits,
# setpriv drops its privileges); its other programs need libraries nothing else here does.
UTIL_LINUX_PROGRAMS=(prlimit setpriv)
JAVA_DIR=/usr/lib/jvm/java-17-openjdk-arm64

# The versioned kernel package linux-image-arm64 points at, e.g. linux-image-6.1.0-56-arm64.
arm_kernel_package() {
  apt-cache depends linux-image-arm64:arm64 2>/dev/null |
    awk '$1 == "Depends:" { sub(/:arm64$/, "", $2); if ($2 ~ /^linux-image-[0-9].*-arm64$/) { print $2; exit } }'
}

# apt-get download PACKAGES (arm64) into DIR.
download() {
  local dir=$1
  shift
  local p names=()
  for p in "$@"; do names+=("$p:arm64"); done
  # apt-get download as root warns that _apt cannot write here; harmless.
  (cd "$dir" && apt-get download -q "${names[@]}" 2>&1 | grep -v 'unsandboxed' >&2) ||
    die "apt-get download ${names[*]} failed (apt-get update? dpkg --add-architecture arm64?)"
}

prepare_kernel() {
  local pkg=$1 kdir="$ARM_DIR/kernel"
  [[ -e $kdir/.ready && $(cat "$kdir/.ready") == "$pkg" ]] && return 0
  log "downloading $pkg:arm64 into $kdir"
  rm -rf "$kdir"
  local tmp
  tmp=$(mktemp -d "$ARM_DIR/.tmp.XXXXXX")
  download "$tmp" "$pkg"
  dpkg-deb -x "$tmp"/*.deb "$tmp/root"
  rm -f "$tmp"/*.deb
  depmod -b "$tmp/root" "$(ls "$tmp/root/lib/modules")"
  mv "$tmp" "$kdir"
  echo "$pkg" >"$kdir/.ready"
}

# Every NEEDED library of the userland's programs and libraries is in it, but for iproute2's
# `ss` and its ATM plugin (libselinux, libtirpc, libatm), which nothing here runs.
check_needed() {
  local root=$1 lib missing=()
  while read -r lib; do
    [[ -n $(find "$root/lib" "$root/usr/lib" -name "$lib" -print -quit) ]] || missing+=("$lib")
  done < <(find "$root/bin" "$root/usr/bin" "$root/sbin" "$root/usr/lib/aarch64-linux-gnu" \
    "$root/lib/aarch64-linux-gnu" "$root$JAVA_DIR/lib/server" -type f ! -name ss \
    ! -name q_atm.so -exec readelf -d {} + 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
  ((${#missing[@]} == 0)) || die "the arm64 userland lacks ${missing[*]}"
}

# /bin, /sbin and /lib as links into /usr, as on the host (Debian 12 is usr-merged, its
# packages not yet): a program is then found by either path, also in guest-init's chroot
# calls (PATH=/bin), and the host's /bin link cannot show its x86_64 files through.
merge_usr() {
  local root=$1 d
  for d in bin sbin lib; do
    [[ -d $root/$d && ! -L $root/$d ]] || continue
    mkdir -p "$root/usr/$d"
    cp -a "$root/$d/." "$root/usr/$d/"
    rm -rf "${root:?}/$d"
    ln -s "usr/$d" "$root/$d"
  done
}

# Programs the guest's scripts call by name must be arm64: every busybox applet that no
# package brings gets a link, so the host's x86_64 copy underneath is never found first.
link_busybox_applets() {
  local root=$1 applet
  for applet in $(/bin/busybox --list); do
    [[ -e $root/usr/bin/$applet || -e $root/usr/sbin/$applet ]] && continue
    ln -s busybox "$root/usr/bin/$applet"
  done
}

userland_stamp() {
  printf '%s\n' "${USERLAND_PACKAGES[@]}" "$(cat "$TESTBED_DIR/setup-aarch64.sh")" | sha256sum
}

prepare_userland() {
  local udir="$ARM_DIR/userland" stamp
  stamp=$(userland_stamp)
  [[ -e $udir/.ready && $(cat "$udir/.ready") == "$stamp" ]] && return 0
  log "downloading the arm64 userland into $udir"
  rm -rf "$udir"
  local tmp
  tmp=$(mktemp -d "$ARM_DIR/.tmp.XXXXXX")
  mkdir "$tmp/debs" "$tmp/root"
  download "$tmp/debs" "${USERLAND_PACKAGES[@]}"
  local deb
  for deb in "$tmp"/debs/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
  rm -rf "$tmp/debs"
  local root=$tmp/root program
  mkdir "$tmp/debs" "$tmp/util-linux"
  download "$tmp/debs" util-linux
  dpkg-deb -x "$tmp"/debs/util-linux_*.deb "$tmp/util-linux"
  for program in "${UTIL_LINUX_PROGRAMS[@]}"; do
    cp "$tmp/util-linux/usr/bin/$program" "$root/usr/bin/$program"
  done
  rm -rf "$tmp/debs" "$tmp/util-linux"
  check_needed "$root"
  # what maintainer scripts would have done: the alternatives for java, busybox's applets
  local tool
  for tool in java javac jar; do
    [[ -e $root$JAVA_DIR/bin/$tool ]] && ln -sfn "$JAVA_DIR/bin/$tool" "$root/usr/bin/$tool"
  done
  cp "$root/bin/busybox" "$tmp/busybox"
  merge_usr "$root"
  link_busybox_applets "$root"
  mv "$root" "$udir"
  mv "$tmp/busybox" "$ARM_DIR/busybox"
  rm -rf "$tmp"
  echo "$stamp" >"$udir/.ready"
}

# Module files to load, dependencies first, each once.
module_files() {
  local root=$1 kver=$2 m
  for m in "${GUEST_MODULES[@]}"; do
    modprobe -d "$root" -S "$kver" --show-depends "$m" || die "module $m not found in $kver"
  done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

initramfs_stamp() {
  {
    cat "$ARM_DIR/kernel/.ready" 2>/dev/null
    echo "${GUEST_MODULES[*]}"
    cat "$TESTBED_DIR/guest-init"
  } | sha256sum | cut -d' ' -f1
}

build_initramfs() {
  local root="$ARM_DIR/kernel/root" stamp
  stamp=$(initramfs_stamp)
  [[ -e $ARM_DIR/initramfs.cpio.gz && $(cat "$ARM_DIR/stamp" 2>/dev/null) == "$stamp" ]] && return 0
  log "building the aarch64 guest initramfs"
  local kver stage f applet
  kver=$(ls "$root/lib/modules")
  stage=$(mktemp -d)
  mkdir -p "$stage"/{bin,dev,proc,sys,modules,ctl,lower,upper,userland,newroot}
  cp "$ARM_DIR/busybox" "$stage/bin/busybox"
  # the applet names of the host's busybox: the same Debian version and configuration
  for applet in $(/bin/busybox --list); do
    [[ $applet == busybox ]] || ln -s busybox "$stage/bin/$applet"
  done
  module_files "$root" "$kver" | while read -r f; do
    case $f in
      *.ko.xz) xz -dc "$f" >"$stage/modules/$(basename "${f%.xz}")" && basename "${f%.xz}" ;;
      *) cp "$f" "$stage/modules/" && basename "$f" ;;
    esac
  done >"$stage/modules/order"
  install -m 0755 "$TESTBED_DIR/guest-init" "$stage/init"
  (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$ARM_DIR/initramfs.cpio.gz.tmp"
  rm -rf "$stage"
  mv "$ARM_DIR/initramfs.cpio.gz.tmp" "$ARM_DIR/initramfs.cpio.gz"
  ln -sfn "$root/boot/vmlinuz-$kver" "$ARM_DIR/vmlinuz"
  echo "$stamp" >"$ARM_DIR/stamp"
}

# All there and current: then nothing is locked, so guests that run (holding the lock shared,
# see aarch64.sh) never make this wait.
up_to_date() {
  [[ $(cat "$ARM_DIR/userland/.ready" 2>/dev/null) == "$(userland_stamp)" &&
    $(cat "$ARM_DIR/stamp" 2>/dev/null) == "$(initramfs_stamp)" &&
    $(cat "$ARM_DIR/kernel/.ready" 2>/dev/null) == "$(arm_kernel_package)" ]]
}

main() {
  command -v qemu-system-aarch64 >/dev/null ||
    die "qemu-system-aarch64 missing: ./dev setup (package qemu-system-arm)"
  mkdir -p "$ARM_DIR"
  up_to_date && return 0
  # Exclusive: replacing the userland under a running guest breaks it (its programs vanish
  # from the 9p share), so this waits for running aarch64 guests to end.
  exec 9>"$ARM_DIR/.lock"
  flock 9
  local pkg
  pkg=$(arm_kernel_package)
  if [[ -z $pkg ]]; then
    is_root || die "apt does not know linux-image-arm64:arm64; run as root: apt-get update"
    apt-get update -q >&2
    pkg=$(arm_kernel_package)
  fi
  [[ -n $pkg ]] || die "cannot find the kernel package linux-image-arm64:arm64 depends on"
  prepare_kernel "$pkg"
  prepare_userland
  build_initramfs
  exec 9>&-
}

main "$@"
