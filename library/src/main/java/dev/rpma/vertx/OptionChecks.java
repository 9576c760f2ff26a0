package dev.rpma.vertx;

import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the options classes check of their input: a value's range, and JSON before
 * vertx-codegen's generated converter reads it. The generated converters skip a key they do not
 * know and a value of another type without a word; a typo in a config would then silently leave
 * the default in place. So every key must be one the options write in {@code toJson()}, with a
 * value of that key's JSON type.
 */
final class OptionChecks {

  private OptionChecks() {
  }

  /**
   * {@code value} if in [{@code min}, {@code max}].
   *
   * @throws IllegalArgumentException naming the option, the range and the value
   */
  static int inRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + (max == Integer.MAX_VALUE
          ? " must be at least " + min : " must be in [" + min + ", " + max + "]")
          + ", got " + value);
    }
    return value;
  }

  /**
   * Refuses {@code json} if it has a key {@code known} lacks, or a value of another JSON type.
   *
   * @param type the options' class name, for the message
   * @param json what the user passed
   * @param known the defaults as JSON: every key, each with a value of its type
   * @throws IllegalArgumentException naming the key, the known keys and how to share a config
   */
  static void keysAndTypes(String type, JsonObject json, JsonObject known) {
    Objects.requireNonNull(json, type + " from JSON: json");
    Set<String> unknown = new TreeSet<>(json.fieldNames());
    unknown.removeAll(known.fieldNames());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown " + type + " keys " + unknown
          + didYouMean(unknown, known.fieldNames()) + "; the keys are "
          + new TreeSet<>(known.fieldNames()) + ". To keep them in a config shared with other"
          + " settings, put them under a key of their own and read them with " + type
          + ".fromConfig(config, key)");
    }
    for (String key : json.fieldNames()) {
      Object value = json.getValue(key);
      Object sample = known.getValue(key);
      if (!sameJsonType(value, sample)) {
        throw new IllegalArgumentException(type + " key " + key + " has the wrong type: "
            + (sample instanceof Boolean ? "true or false" : "a whole number (int)")
            + " expected, got " + (value == null ? "null (leave the key out for the default)"
            : value instanceof String ? "\"" + value + "\"" : value));
      }
    }
  }

  /**
   * The object under {@code key} of a config shared with other settings, or an empty one when
   * the config lacks the key (so the options keep their defaults).
   *
   * @throws IllegalArgumentException if the value under {@code key} is not a JSON object
   */
  static JsonObject section(String type, JsonObject config, String key) {
    Objects.requireNonNull(config, type + ".fromConfig: config");
    Objects.requireNonNull(key, type + ".fromConfig: key");
    Object value = config.getValue(key);
    if (value == null) {
      return new JsonObject();
    }
    if (!(value instanceof JsonObject section)) {
      throw new IllegalArgumentException("config key " + key + " must be a JSON object of "
          + type + " keys, got " + value);
    }
    return section;
  }

  private static boolean sameJsonType(Object value, Object sample) {
    if (sample instanceof Boolean) {
      return value instanceof Boolean;
    }
    if (sample instanceof Integer) {
      return value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
          && n.doubleValue() >= Integer.MIN_VALUE && n.doubleValue() <= Integer.MAX_VALUE;
    }
    return sample != null && sample.getClass().isInstance(value);
  }

  /** " (cqSize?)" when an unknown key differs from a known one in case or separators only. */
  private static String didYouMean(Set<String> unknown, Set<String> known) {
    Set<String> guesses = new TreeSet<>();
    for (String u : unknown) {
      for (String k : known) {
        if (squash(u).equals(squash(k))) {
          guesses.add(k);
        }
      }
    }
    return guesses.isEmpty() ? "" : " (meant " + String.join(", ", guesses) + "?)";
  }

  private static String squash(String key) {
    return key.replaceAll("[-_. ]", "").toLowerCase(Locale.ROOT);
  }
}
