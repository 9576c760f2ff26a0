package dev.rpma.vertx;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The test bed's fault controls, asked from inside a guest (scripts/testbed/hosts-bin/
 * rpma-fault, given to the cross-host suite): cut and heal the wire between the hosts, power a
 * host off. Each call returns once the host machine has done it (about a second). A cut here
 * is the silent kind ({@code drop}: every frame lost, both links stay up), as a path cut
 * somewhere between two hosts is; pulling a host's own cable would also take its port down,
 * which the device reports at once.
 */
final class Faults {

  /** A cut shorter than the queue pair's retries and every bound: nothing may be lost. */
  static final int BRIEF_CUT_MS = 200;

  private final String command;

  Faults(String command) {
    this.command = command;
  }

  void cut() {
    run("drop");
  }

  /** Cut for {@link #BRIEF_CUT_MS}, healed by the host machine (timed there, not here). */
  void cutBriefly() {
    run("drop:" + BRIEF_CUT_MS);
  }

  void heal() {
    run("heal");
  }

  /** Host 0, where the server runs, loses power: its emulator is killed, no shutdown. */
  void powerOffServer() {
    run("kill", "h0");
  }

  private void run(String... args) {
    List<String> cmd = new ArrayList<>(List.of(command));
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue());
      }
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", cmd) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
