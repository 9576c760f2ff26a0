package dev.rpma.vertx;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a hostile sequence saw: every Future the API handed out, how often each completed, and
 * every failure or throw that broke the contract (a failure is an exception of the API's types,
 * or an IllegalArgumentException / IllegalStateException, with a message). Thread-safe: Futures
 * complete on loops and workers while the sequence goes on.
 */
final class HostileLedger {

  private record Tracked(String what, Future<?> future, AtomicInteger completions) {
  }

  private final ConcurrentLinkedQueue<Tracked> futures = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

  /** Tracks {@code future}, made by {@code what}; returns it for chaining. */
  <T> Future<T> track(String what, Future<T> future) {
    if (future == null) {
      violations.add(what + " returned a null Future");
      return Future.failedFuture(new IllegalStateException(what + ": null Future"));
    }
    Tracked tracked = new Tracked(what, future, new AtomicInteger());
    futures.add(tracked);
    future.onComplete(ar -> {
      if (tracked.completions.incrementAndGet() > 1) {
        violations.add(what + " completed more than once");
      }
      if (ar.failed()) {
        check(what + " failed", ar.cause());
      }
    });
    return future;
  }

  /** Checks an exception thrown by a call (rather than a failed Future). */
  void thrown(String what, Throwable e) {
    check(what + " threw", e);
  }

  /** A contract broken elsewhere: a close handler called twice, an unhandled exception. */
  void violation(String what) {
    violations.add(what);
  }

  /** Whether {@code e} is a failure the API may give: its own types, or a bad argument / state. */
  static boolean allowed(Throwable e) {
    return (e instanceof RpmaException || e instanceof IllegalArgumentException
        || e instanceof IllegalStateException)
        && e.getMessage() != null && !e.getMessage().isBlank();
  }

  private void check(String what, Throwable e) {
    if (!allowed(e)) {
      violations.add(what + " with " + e + stackTop(e));
    }
  }

  static String stackTop(Throwable e) {
    StringBuilder s = new StringBuilder();
    StackTraceElement[] stack = e.getStackTrace();
    for (int i = 0; i < Math.min(6, stack.length); i++) {
      s.append("\n      at ").append(stack[i]);
    }
    return s.toString();
  }

  /** The Futures not completed yet, named. */
  List<String> pending() {
    List<String> open = new ArrayList<>();
    for (Tracked t : futures) {
      if (!t.future.isComplete()) {
        open.add(t.what);
      }
    }
    return open;
  }

  /** Futures whose completion callback has not run once (a completed Future runs it at once). */
  List<String> neverCalledBack() {
    List<String> open = new ArrayList<>();
    for (Tracked t : futures) {
      if (t.completions.get() == 0) {
        open.add(t.what);
      }
    }
    return open;
  }

  int tracked() {
    return futures.size();
  }

  /** "N Futures: S succeeded, F failed", for the run's log. */
  String summary() {
    int succeeded = 0;
    int failed = 0;
    for (Tracked t : futures) {
      succeeded += t.future.succeeded() ? 1 : 0;
      failed += t.future.failed() ? 1 : 0;
    }
    return futures.size() + " Futures: " + succeeded + " succeeded, " + failed + " failed";
  }

  List<String> violations() {
    return new ArrayList<>(violations);
  }
}
