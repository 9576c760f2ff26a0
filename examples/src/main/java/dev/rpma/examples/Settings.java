package dev.rpma.examples;

import java.util.HashMap;
import java.util.Map;

/**
 * The examples' settings: {@code --name=value} (or {@code --name value}) on the command line,
 * else the system property {@code rpma.name}, else a default. Command line first, so a script
 * can set defaults with -D and a user can still override them.
 */
public final class Settings {

  private final Map<String, String> args;

  private Settings(Map<String, String> args) {
    this.args = args;
  }

  /** Whether the command line asks for the list of options. */
  public static boolean helpRequested(String[] argv) {
    for (String arg : argv) {
      if (arg.equals("--help") || arg.equals("-h")) {
        return true;
      }
    }
    return false;
  }

  /** @throws IllegalArgumentException on anything that is not {@code --name[=value]} */
  public static Settings parse(String[] argv) {
    Map<String, String> args = new HashMap<>();
    for (int i = 0; i < argv.length; i++) {
      String arg = argv[i];
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new IllegalArgumentException("expected --name=value, got '" + arg + "'");
      }
      int eq = arg.indexOf('=');
      if (eq > 0) {
        args.put(arg.substring(2, eq), arg.substring(eq + 1));
      } else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
        args.put(arg.substring(2), argv[++i]);
      } else {
        throw new IllegalArgumentException("no value for " + arg);
      }
    }
    return new Settings(args);
  }

  public String string(String name, String defaultValue) {
    String value = args.get(name);
    if (value == null) {
      value = System.getProperty("rpma." + name);
    }
    return value == null || value.isBlank() ? defaultValue : value.strip();
  }

  public long number(String name, long defaultValue, long min, long max) {
    String text = string(name, null);
    if (text == null) {
      return defaultValue;
    }
    long value;
    try {
      value = Long.parseLong(text.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number, got '" + text + "'");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  public int integer(String name, int defaultValue, int min, int max) {
    return (int) number(name, defaultValue, min, max);
  }

  /**
   * The address of the RDMA device: --address, else RPMA_TEST_IP (set by ./dev rdma).
   *
   * @throws IllegalArgumentException when neither is set
   */
  public String deviceAddress() {
    String address = string("address", System.getenv("RPMA_TEST_IP"));
    if (address == null || address.isBlank()) {
      throw new IllegalArgumentException("no RDMA device address: pass --address=IP or set"
          + " RPMA_TEST_IP (./dev rdma -- CMD sets it to the device's address)");
    }
    return address;
  }
}
