#!/bin/sh
# Run inside the test-bed guest (./dev rdma --pmem SIZE) before CMD: loads the persistent
# memory modules from the unpacked kernel the guest booted, then makes the emulated NVDIMM's
# region one device-DAX namespace, /dev/dax0.0 (field notes section 11). The labels live in
# the NVDIMM's backing file: a fresh one (--pmem) has none, so the namespace is made; a kept
# one (--pmem-file) that has had it since an earlier boot keeps it, bytes and all, and it is
# found again as it is (a reboot after a power loss must not re-initialise the labels).
# Usage: pmem-guest.sh KERNEL_ROOT KERNEL_VERSION [kept]
set -eu
root=$1 kver=$2 kept=${3:-}
# -C /dev/null: ndctl's modprobe.d rule for libnvdimm would run ndctl instead of loading it
for m in nfit nd_pmem dax_pmem device_dax; do
  modprobe -C /dev/null -d "$root" -S "$kver" "$m"
done
i=0
until ndctl list -R 2>/dev/null | grep -q region; do
  i=$((i + 1))
  [ "$i" -le 50 ] || { echo "pmem-guest: no NVDIMM region appeared" >&2; exit 1; }
  sleep 0.1
done
# A kept file's namespace: looked for a while (the region's namespaces may be scanned after the
# region shows), never re-made in haste: that would wipe what survived the power loss.
has_namespace() { ndctl list -N 2>/dev/null | grep -Eq '"mode" *: *"devdax"'; }
i=0
if [ -n "$kept" ]; then
  until has_namespace; do
    i=$((i + 1))
    [ "$i" -le 50 ] || break
    sleep 0.1
  done
fi
if has_namespace; then
  echo "pmem-guest: the device-DAX namespace found (kept in the backing file)" >&2
else
  ndctl disable-region all >/dev/null
  ndctl init-labels -f all >/dev/null
  ndctl enable-region all >/dev/null
  ndctl create-namespace -m devdax -a 2M >/dev/null
fi
i=0
until [ -c /dev/dax0.0 ]; do
  i=$((i + 1))
  [ "$i" -le 50 ] || { echo "pmem-guest: /dev/dax0.0 did not appear" >&2; exit 1; }
  sleep 0.1
done
echo "pmem-guest: /dev/dax0.0, $(cat /sys/bus/dax/devices/dax0.0/size) bytes" >&2
