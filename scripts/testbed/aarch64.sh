# The aarch64 guest of ./dev rdma --arch aarch64: what differs from the x86_64 one. Sourced by
# rdma.sh, never run. The guest boots Debian's arm64 kernel on qemu-system-aarch64's `virt`
# machine (TCG, one host thread like the x86_64 guest) with the same guest-init, and runs the
# command in the arm64 userland that setup-aarch64.sh unpacked above the host's /: the
# repository, ~/.m2 and the build output are where they are on the host, the programs arm64.
# shellcheck shell=bash

ARM_DIR="$CACHE_DIR/aarch64"
ARM_JAVA_HOME=/usr/lib/jvm/java-17-openjdk-arm64
# The emulated JVM needs less than the x86_64 guest's 6G (its heap is a quarter of it by
# default), and two guests run side by side in ./dev test.
ARM_GUEST_MEM=${DEV_RDMA_MEM:-3G}

# The userland replaces the host's programs: a PATH of its own (the host's may list x86_64
# tools first, e.g. /usr/local/bin) and its JDK.
arm_cmd_env() {
  echo "PATH=/usr/sbin:/usr/bin:/sbin:/bin"
  echo "JAVA_HOME=$ARM_JAVA_HOME"
}

# Held shared while the guest runs (fd 8, released when ./dev rdma ends): setup-aarch64.sh
# takes the lock exclusively before it replaces the userland a running guest reads.
arm_hold_userland() {
  exec 8<"$ARM_DIR/.lock"
  flock -s 8
}

# QEMU arguments for the machine, kernel and console of the aarch64 guest (DIR: its logs).
arm_machine_args() {
  local dir=$1
  # cortex-a57: a plain ARMv8.0 core; `-cpu max` would add pointer authentication, which TCG
  # emulates slowly
  # shellcheck disable=SC2054 # commas belong to QEMU option values
  local args=(
    -M virt -cpu cortex-a57 -accel tcg,thread=single
    -m "$ARM_GUEST_MEM" -smp 2
    -nodefaults -no-user-config -display none -monitor none -no-reboot
    -kernel "$ARM_DIR/vmlinuz" -initrd "$ARM_DIR/initramfs.cpio.gz"
    -append "console=ttyAMA0 quiet loglevel=4 panic=-1 ${DEV_RDMA_KERNEL_ARGS-}"
    -serial "file:$dir/console.log"
  )
  printf '%s\n' "${args[@]}"
  share_args userland "$ARM_DIR/userland" ",readonly=on"
}
