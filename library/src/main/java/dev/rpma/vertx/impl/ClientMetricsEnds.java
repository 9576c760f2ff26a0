package dev.rpma.vertx.impl;

import io.vertx.core.spi.metrics.ClientMetrics;

/**
 * Ends a request and a response on a provider's {@link ClientMetrics} through the form it
 * implements, so that each is recorded once, with its bytes where the provider takes them.
 *
 * <p>The SPI has two forms of each end: {@code requestEnd(M)} and {@code requestEnd(M, long)}
 * (the same for {@code responseEnd}). In vertx-core 5.2 the one-argument defaults call the
 * two-argument forms with -1 (bytes unknown), and the two-argument defaults do nothing; Vert.x's
 * own clients call one form per end (HTTP the two-argument one, the SQL clients the other), and
 * providers implement what they are called with: Vert.x Micrometer Metrics 5.2's generic client
 * metrics override only the one-argument forms, so a library calling only the two-argument ones
 * records nothing there (its pending gauge never went down). Calling both would count twice in a
 * provider that implements the two-argument forms (the one-argument defaults call them). So: the
 * two-argument form, with the bytes, when the provider overrides it; the one-argument form
 * otherwise (which reaches the two-argument default if the provider overrides neither).
 *
 * <p>Which forms a provider class overrides is looked up once per class.
 */
final class ClientMetricsEnds {

  private static final ClassValue<ClientMetricsEnds> BY_CLASS = new ClassValue<>() {
    @Override
    protected ClientMetricsEnds computeValue(Class<?> type) {
      return new ClientMetricsEnds(overridesWithBytes(type, "requestEnd"),
          overridesWithBytes(type, "responseEnd"));
    }
  };

  private final boolean requestEndTakesBytes;
  private final boolean responseEndTakesBytes;

  private ClientMetricsEnds(boolean requestEndTakesBytes, boolean responseEndTakesBytes) {
    this.requestEndTakesBytes = requestEndTakesBytes;
    this.responseEndTakesBytes = responseEndTakesBytes;
  }

  /** How to end requests and responses on {@code metrics}. */
  static ClientMetricsEnds of(ClientMetrics<?, ?, ?> metrics) {
    return BY_CLASS.get(metrics.getClass());
  }

  /** The request was sent, with {@code bytesWritten}. */
  void requestEnd(ClientMetrics<Object, ?, ?> metrics, Object request, long bytesWritten) {
    if (requestEndTakesBytes) {
      metrics.requestEnd(request, bytesWritten);
    } else {
      metrics.requestEnd(request);
    }
  }

  /** The response ended, with {@code bytesRead}. */
  void responseEnd(ClientMetrics<Object, ?, ?> metrics, Object request, long bytesRead) {
    if (responseEndTakesBytes) {
      metrics.responseEnd(request, bytesRead);
    } else {
      metrics.responseEnd(request);
    }
  }

  /**
   * Whether {@code type} (or a class or interface between it and {@link ClientMetrics})
   * overrides {@code name(M, long)}: then the method found is not the SPI's own default. A
   * generic override shows as its bridge method, {@code name(Object, long)}.
   */
  private static boolean overridesWithBytes(Class<?> type, String name) {
    try {
      return type.getMethod(name, Object.class, long.class).getDeclaringClass()
          != ClientMetrics.class;
    } catch (NoSuchMethodException e) {
      return false; // cannot be: the SPI declares it
    }
  }
}
