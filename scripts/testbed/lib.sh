# Shared helpers for the RDMA test bed scripts. Sourced, never run.
# shellcheck shell=bash

# The repository root and this directory, whoever sources us.
TESTBED_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$TESTBED_DIR/../.." && pwd)"

# Downloaded and generated things (kernel, initramfs) live outside the repository so they are
# never committed and survive `git clean`.
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/vertx-rpma"
GUEST_DIR="$CACHE_DIR/guest"

# The guest's fixed network address (QEMU user networking always hands out 10.0.2.15).
GUEST_IP=10.0.2.15

# Kernel modules the guest loads, in this order; their dependencies are resolved at setup time.
# crc32_generic is needed by rdma_rxe but missing from its modules.dep entry. sch_netem lets
# tests add delay and loss with tc (the command cannot load modules: it sees the host's).
GUEST_MODULES=(virtio_pci virtio_net virtio_console 9pnet_virtio 9p overlay crc32_generic
  rdma_rxe ib_uverbs rdma_ucm sch_netem)

log() { printf '[dev %s] %s\n' "${DEV_CMD:-}" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

is_root() { [[ $(id -u) -eq 0 ]]; }

# Seconds since the epoch with a fraction, for timings.
now() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
