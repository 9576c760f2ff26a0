package dev.rpma.vertx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Prometheus scrape (text exposition format) as a user's monitoring reads it: each sample's
 * name, labels and value, summed over the series a query's labels select.
 */
final class PrometheusScrape {

  private record Sample(String name, Map<String, String> labels, double value) {
  }

  private final String text;
  private final List<Sample> samples = new ArrayList<>();

  PrometheusScrape(String text) {
    this.text = text;
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        samples.add(parse(line));
      }
    }
  }

  /**
   * The sum of sample {@code name} over the series whose labels include {@code labels} (pairs:
   * label, value); fails when there is none, so that a renamed meter is not read as 0.
   */
  double value(String name, String... labels) {
    double sum = 0;
    boolean found = false;
    for (Sample s : samples) {
      if (s.name.equals(name) && selects(s.labels, labels)) {
        sum += s.value;
        found = true;
      }
    }
    if (!found) {
      throw new AssertionError("no sample " + name + " " + List.of(labels) + " in:\n" + text);
    }
    return sum;
  }

  @Override
  public String toString() {
    return text;
  }

  private static boolean selects(Map<String, String> have, String... labels) {
    for (int i = 0; i < labels.length; i += 2) {
      if (!labels[i + 1].equals(have.get(labels[i]))) {
        return false;
      }
    }
    return true;
  }

  /** {@code name{a="x",b="y"} 1.0} or {@code name 1.0}; label values hold no quote here. */
  private static Sample parse(String line) {
    int brace = line.indexOf('{');
    int space = line.lastIndexOf(' ');
    Map<String, String> labels = new LinkedHashMap<>();
    String name;
    if (brace >= 0 && brace < line.indexOf(' ')) {
      name = line.substring(0, brace);
      int end = line.lastIndexOf('}');
      for (String pair : line.substring(brace + 1, end).split("\",")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          labels.put(pair.substring(0, eq), pair.substring(eq + 2).replaceAll("\"$", ""));
        }
      }
      space = line.indexOf(' ', end);
    } else {
      name = line.substring(0, space);
    }
    String value = line.substring(space + 1).trim().split(" ")[0];
    return new Sample(name, labels, Double.parseDouble(value.replace("Inf", "Infinity")));
  }
}
