#!/usr/bin/env bash
# ./dev nemesis [--long] [--seed N]: the persistent log under a randomized schedule of faults.
# Three guests on one wire (./dev rdma --hosts 3): h0 serves one log per client from files on
# a disk image (server persist: msync per record), h1 and h2 append durably and read back
# while the nemesis, driven from h1, injects netem loss, delay, reorder and duplication on
# one host's link, partitions a host off and heals it, flaps a link, kills the server's
# process (started again) and powers h0 off and on again (rpma-fault reboot: the same disk).
# The checker: every Future completes exactly once, every record read back after its
# acknowledgement is intact, every session a fault ended is resumed (a record acknowledged
# again) within 900 s of its end (NemesisClient --resume-within; never_resumed=0 in each
# report), and at the end, after h0 is powered off and on once more, every record
# acknowledged as durable is intact in h0's logs on that fresh boot (LogRecoveryCheck).
#   --long     24 steps instead of the short 8 (one of each kind)
#   --seed N   the schedule of seed N (default: a random one); the seed is printed, and the
#              same seed gives the same schedule (scripts/testbed/nemesis.py schedule)
# RPMA_NEMESIS_CONTROL=never-reconnect ./dev nemesis: a control for the resume rule, clients
# that never connect again after a failed session; the run must fail.
# RPMA_NEMESIS_CONTROL=unpersisted ./dev nemesis: a control for the durability check, a server
# that acknowledges persist requests without persisting; the run must fail.
# The guest side: scripts/testbed/nemesis.sh. Needs the examples built (scripts/example.sh
# --prepare, as ./dev test does; or RPMA_NEMESIS_CP). Results: target/nemesis/ (summary.txt,
# faults.txt, report-K.txt, check-K.txt, the clients' and servers' output). Exit code 0 only
# if the checker found nothing wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=short
SEED=${RPMA_NEMESIS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
while (($#)); do
  case $1 in
    --long) PROFILE=long; shift ;;
    --seed) [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "--seed needs a number" >&2; exit 2; }
      SEED=$2; shift 2 ;;
    *) echo "usage: ./dev nemesis [--long] [--seed N]" >&2; exit 2 ;;
  esac
done
OUT=target/nemesis
IMG=$OUT/disk.img
rm -rf "$OUT"
mkdir -p "$OUT/ctl"
truncate -s 256M "$IMG"
# initialised now, not lazily by the guest's kernel in the background
/sbin/mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$IMG"
# three guests: 2 GiB each is plenty for a JVM or two
export DEV_RDMA_MEM=${DEV_RDMA_MEM:-2G}
# no_timer_check: under load the guest kernel's IO-APIC timer check was seen to panic at boot
# (and this run boots h0 again mid-run); the clock settings are rdma.sh's default
export DEV_RDMA_KERNEL_ARGS=${DEV_RDMA_KERNEL_ARGS-tsc=reliable clocksource=tsc no_timer_check}
# three guests booting at once on a shared 2-core host were seen to need more than 120 s
export DEV_RDMA_BOOT_TIMEOUT=${DEV_RDMA_BOOT_TIMEOUT:-400}
# the short run took 11 min at load 21; the final power cycle adds a boot and the check
TIMEOUT=1200
[[ $PROFILE == long ]] && TIMEOUT=3600
echo "nemesis: seed $SEED, profile $PROFILE (replay: ./dev nemesis --seed $SEED$([[ $PROFILE == long ]] && echo ' --long'))"
start=$(date +%s)
rc=0
./dev rdma --hosts 3 --disk "$IMG" --rw "$OUT" --timeout "$TIMEOUT" -- \
  scripts/testbed/nemesis.sh "$OUT" "$PROFILE" "$SEED" || rc=$?
echo "nemesis: $(($(date +%s) - start)) s in all, boots included"
if [[ -s $OUT/summary.txt ]]; then
  cat "$OUT/summary.txt"
else
  echo "nemesis: FAILED: no summary (see above); seed $SEED"
  ((rc != 0)) || rc=1
fi
exit "$rc"
