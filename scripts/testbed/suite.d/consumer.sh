#!/usr/bin/env bash
# The consumer project on the x86_64 device, loading the natives from the installed jar with
# the system's librpma hidden (scripts/consumer-check-guest.sh; the aarch64 guest runs the
# same in rdma-suite-aarch64.sh). Prepared on the host by ./dev test.
exec scripts/consumer-check-guest.sh
