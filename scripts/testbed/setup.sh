#!/usr/bin/env bash
# ./dev setup: install the packages the build and the test bed need, then prepare the QEMU guest
# (Debian kernel + busybox initramfs) in the cache directory. Idempotent and quick when all is
# present.
#
#   setup.sh           packages, then the guest, then the aarch64 guest (setup-aarch64.sh)
#   setup.sh --guest   the guest only (what ./dev rdma calls before booting it)
set -euo pipefail
# shellcheck source=scripts/testbed/lib.sh
source "$(dirname "$0")/lib.sh"
DEV_CMD=${DEV_CMD:-setup}
# apt-get and dpkg must never wait for an answer (CI has no stdin, maybe not even a closed one).
exec </dev/null

# depmod and modprobe live in /sbin, which a normal user's PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"

# python3-pytest: ./dev test's Python tests (bench/tests, scripts/testbed/tests); python3 runs
# bench/report.py and the test bed's fault control (faults.py)
BUILD_PACKAGES=(maven gcc make libc6-dev librpma-dev libibverbs-dev librdmacm-dev python3
  python3-pytest)
# The aarch64 natives, cross-compiled by the normal build (library/pom.xml): the compiler, and
# the arm64 libraries it links against (dpkg's arm64 architecture added first). librpma0:arm64,
# not librpma-dev:arm64: the JNI library links the .so.0 itself (library/src/main/c/Makefile),
# and librpma-dev:arm64 cannot be installed beside librpma-dev:amd64 (their man pages differ).
# libc6-dev-arm64-cross: the cross compiler's C headers, only a Recommends of
# gcc-aarch64-linux-gnu, which --no-install-recommends leaves out (a fresh Debian 12 then
# failed at string.h's bits/libc-header-start.h).
CROSS_PACKAGES=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
FOREIGN_ARCH=arm64
FOREIGN_PACKAGES=(librpma0 libibverbs-dev librdmacm-dev)
RUNTIME_PACKAGES=(librpma0 ibverbs-providers librdmacm1 rdma-core ibverbs-utils rdmacm-utils
  perftest libpci3)
# iproute2 provides `rdma` (link add, link show), used on the host and inside the guest.
# qemu-system-arm: qemu-system-aarch64, the aarch64 guest (setup-aarch64.sh); ndctl: --pmem.
GUEST_PACKAGES=(qemu-system-x86 qemu-system-arm busybox-static kmod cpio iproute2 ndctl)

# Packages from the lists above that are not installed, one per line.
missing_packages() {
  local wanted=("${BUILD_PACKAGES[@]}" "${CROSS_PACKAGES[@]}" "${RUNTIME_PACKAGES[@]}"
    "${GUEST_PACKAGES[@]}")
  # A JDK from anywhere will do (SDKMAN, a tarball): only install one if there is none.
  if ! command -v java >/dev/null || ! command -v javac >/dev/null; then
    wanted+=(default-jdk-headless)
  fi
  local installed
  # dpkg-query fails when it has never heard of one of them: that one is simply missing.
  installed=$( (dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${wanted[@]}" 2>/dev/null || true) |
    awk '$2 == "ii" { print $1 }')
  local p
  for p in "${wanted[@]}"; do
    grep -qxF "$p" <<<"$installed" || echo "$p"
  done
  # the foreign ones by their arch-qualified name (${Package} would not say which arch is in)
  for p in "${FOREIGN_PACKAGES[@]}"; do
    [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$p:$FOREIGN_ARCH" 2>/dev/null) == ii* ]] ||
      echo "$p:$FOREIGN_ARCH"
  done
}

# dpkg must know the foreign architecture before apt can list its packages. Idempotent.
foreign_arch_known() {
  dpkg --print-foreign-architectures | grep -qxF "$FOREIGN_ARCH"
}

# --no-install-recommends: qemu-system-x86 alone would otherwise pull in a desktop's worth.
APT_INSTALL=(apt-get install -y --no-install-recommends)

install_packages() {
  local missing
  missing=$(missing_packages | tr '\n' ' ')
  missing=${missing% }
  [[ -z $missing ]] && return 0
  if ! is_root; then
    log "missing packages: $missing"
    log "run as root:"
    foreign_arch_known || echo "dpkg --add-architecture $FOREIGN_ARCH"
    echo "apt-get update && ${APT_INSTALL[*]} $missing"
    exit 1
  fi
  if ! foreign_arch_known; then
    log "adding dpkg architecture $FOREIGN_ARCH (for the aarch64 natives)"
    dpkg --add-architecture "$FOREIGN_ARCH"
  fi
  log "installing: $missing"
  apt-get update -q
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  DEBIAN_FRONTEND=noninteractive "${APT_INSTALL[@]}" -q $missing
}

# The versioned kernel package linux-image-amd64 points at (not the -cloud- flavour: it has no
# rdma_rxe), e.g. linux-image-6.1.0-56-amd64. Empty if the apt lists do not know it.
kernel_package_from_apt() {
  apt-cache depends linux-image-amd64 2>/dev/null |
    awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9].*-amd64$/ && $2 !~ /cloud/ { print $2; exit }'
}

# Echo the kernel package to use; updates the apt lists (as root) if they cannot tell.
kernel_package() {
  local pkg
  pkg=$(kernel_package_from_apt)
  if [[ -z $pkg ]]; then
    # No apt lists (fresh container): an already prepared kernel is good enough.
    pkg=$(find "$CACHE_DIR/kernel" -mindepth 1 -maxdepth 1 -name 'linux-image-*' -printf '%f\n' \
      2>/dev/null | sort | tail -n 1)
    if [[ -z $pkg || ! -e $CACHE_DIR/kernel/$pkg/.ready ]]; then
      is_root || die "apt does not know linux-image-amd64; run as root: apt-get update"
      apt-get update -q >&2
      pkg=$(kernel_package_from_apt)
    fi
  fi
  [[ -n $pkg ]] || die "cannot find the kernel package linux-image-amd64 depends on"
  echo "$pkg"
}

# Download and unpack the kernel package into $CACHE_DIR/kernel/$pkg/root, with modules.dep.
prepare_kernel() {
  local pkg=$1 kdir="$CACHE_DIR/kernel/$1"
  [[ -e $kdir/.ready ]] && return 0
  log "downloading $pkg into $kdir"
  mkdir -p "$CACHE_DIR/kernel"
  rm -rf "$kdir"
  local tmp
  tmp=$(mktemp -d "$CACHE_DIR/kernel/.tmp.XXXXXX")
  # apt-get download as root warns that _apt cannot write here; harmless.
  (cd "$tmp" && apt-get download -q "$pkg" 2>&1 | grep -v 'unsandboxed' >&2) ||
    die "apt-get download $pkg failed"
  dpkg-deb -x "$tmp"/*.deb "$tmp/root"
  rm -f "$tmp"/*.deb
  local kver
  kver=$(ls "$tmp/root/lib/modules")
  # The package ships no modules.dep; the guest's module list is resolved from it.
  depmod -b "$tmp/root" "$kver"
  mv "$tmp" "$kdir"
  touch "$kdir/.ready"
  # Older kernels are ~400 MB each and never used again.
  find "$CACHE_DIR/kernel" -mindepth 1 -maxdepth 1 ! -name "$pkg" -exec rm -rf {} +
}

# Module files to load, dependencies first, each once (paths into the unpacked kernel).
module_files() {
  local root=$1 kver=$2 m
  for m in "${GUEST_MODULES[@]}"; do
    modprobe -d "$root" -S "$kver" --show-depends "$m" ||
      die "module $m not found in $kver"
  done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

# Copy one module into the initramfs staging dir, uncompressed: busybox insmod reads plain .ko.
stage_module() {
  local src=$1 dest_dir=$2 name
  name=$(basename "$src")
  case $src in
    *.ko.xz) xz -dc "$src" >"$dest_dir/${name%.xz}" ;;
    *.ko.zst) zstd -qdc "$src" >"$dest_dir/${name%.zst}" ;;
    *) cp "$src" "$dest_dir/$name" ;;
  esac
  name=${name%.xz}
  echo "${name%.zst}"
}

# What the initramfs is built from; it is rebuilt whenever this changes.
initramfs_inputs() {
  local pkg=$1
  {
    echo "$pkg"
    echo "${GUEST_MODULES[*]}"
    dpkg-query -W -f='${Version}\n' busybox-static 2>/dev/null || true
    cat "$TESTBED_DIR/guest-init"
  } | sha256sum | cut -d' ' -f1
}

# The initramfs: static busybox, the guest modules and scripts/testbed/guest-init as /init.
build_initramfs() {
  local pkg=$1 root="$CACHE_DIR/kernel/$1/root" stamp
  stamp=$(initramfs_inputs "$pkg")
  if [[ -e $GUEST_DIR/initramfs.cpio.gz && -e $GUEST_DIR/vmlinuz &&
    "$(cat "$GUEST_DIR/stamp" 2>/dev/null)" == "$stamp" ]]; then
    return 0
  fi
  log "building the guest initramfs"
  [[ -x /bin/busybox ]] || die "/bin/busybox missing (package busybox-static)"
  local kver stage
  kver=$(ls "$root/lib/modules")
  stage=$(mktemp -d)
  mkdir -p "$stage"/{bin,dev,proc,sys,modules,ctl,lower,upper,newroot}
  cp /bin/busybox "$stage/bin/busybox"
  local applet
  for applet in $(/bin/busybox --list); do
    [[ $applet == busybox ]] || ln -s busybox "$stage/bin/$applet"
  done
  local f
  module_files "$root" "$kver" | while read -r f; do
    stage_module "$f" "$stage/modules"
  done >"$stage/modules/order"
  install -m 0755 "$TESTBED_DIR/guest-init" "$stage/init"

  mkdir -p "$GUEST_DIR"
  (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$GUEST_DIR/initramfs.cpio.gz.tmp"
  rm -rf "$stage"
  mv "$GUEST_DIR/initramfs.cpio.gz.tmp" "$GUEST_DIR/initramfs.cpio.gz"
  ln -sfn "$root/boot/vmlinuz-$kver" "$GUEST_DIR/vmlinuz"
  echo "$stamp" >"$GUEST_DIR/stamp"
}

prepare_guest() {
  mkdir -p "$CACHE_DIR"
  # Two ./dev runs at once must not unpack into each other.
  exec 9>"$CACHE_DIR/.lock"
  flock 9
  local pkg
  pkg=$(kernel_package)
  prepare_kernel "$pkg"
  build_initramfs "$pkg"
  exec 9>&-
}

main() {
  case "${1:-}" in
    --guest) prepare_guest ;;
    "")
      install_packages
      prepare_guest
      "$TESTBED_DIR/setup-aarch64.sh"
      log "ready (guest kernel $(basename "$(readlink "$GUEST_DIR/vmlinuz")"), cache $CACHE_DIR)"
      ;;
    *) die "usage: setup.sh [--guest]" ;;
  esac
}

main "$@"
