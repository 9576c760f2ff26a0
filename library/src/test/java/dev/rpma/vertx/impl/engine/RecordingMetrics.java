package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.OpKind;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what the engine reports to the metrics, one line per call, token by number. */
final class RecordingMetrics implements OperationMetrics {

  final List<String> events = new CopyOnWriteArrayList<>();
  private int next;

  @Override
  public Object started(byte kind, long length) {
    int token = ++next;
    events.add("started " + token + " " + OpKind.name(kind) + " " + length);
    return token;
  }

  @Override
  public void queued(Object token) {
    events.add("queued " + token);
  }

  @Override
  public void posted(Object token) {
    events.add("posted " + token);
  }

  @Override
  public void ended(Object token, Object result, Throwable failure) {
    events.add("ended " + token + (failure == null ? " ok" : " failed"));
  }

  @Override
  public void opened() {
    events.add("opened");
  }

  @Override
  public void closed() {
    events.add("closed");
  }
}
