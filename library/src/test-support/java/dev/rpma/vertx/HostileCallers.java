package dev.rpma.vertx;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The threads a hostile sequence calls the API from: the test's own thread, two event-loop
 * contexts, a worker verticle's context and a fresh plain thread. A call must return (not
 * block: the API hands out Futures) within {@link #CALL_SECONDS}.
 */
final class HostileCallers {

  enum Caller { TEST_THREAD, EVENT_LOOP, OTHER_EVENT_LOOP, WORKER, PLAIN_THREAD }

  /** Generous for the emulated guest; a call that takes longer is blocking, or hung. */
  static final long CALL_SECONDS = 20;

  private final Context loop;
  private final Context otherLoop;
  private final Context worker;

  private HostileCallers(Context loop, Context otherLoop, Context worker) {
    this.loop = loop;
    this.otherLoop = otherLoop;
    this.worker = worker;
  }

  static HostileCallers start(Vertx vertx) {
    Context loop = vertx.getOrCreateContext();
    Context otherLoop = vertx.getOrCreateContext();
    Promise<Context> worker = Promise.promise();
    Await.await(vertx.deployVerticle(new AbstractVerticle() {
      @Override
      public void start() {
        worker.complete(context);
      }
    }, new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)));
    return new HostileCallers(loop, otherLoop, Await.await(worker.future()));
  }

  /** The context code of {@code caller} runs on (null: a thread with no context). */
  Context context(Caller caller) {
    return switch (caller) {
      case EVENT_LOOP -> loop;
      case OTHER_EVENT_LOOP -> otherLoop;
      case WORKER -> worker;
      default -> null;
    };
  }

  /**
   * Runs {@code call} from {@code caller}; returns its value, or rethrows what it threw.
   * Throws {@link HungCall} when it does not return in time.
   */
  <T> T call(Caller caller, Supplier<T> call) throws Throwable {
    if (caller == Caller.TEST_THREAD) {
      return call.get();
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable run = () -> {
      try {
        result.complete(call.get());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    };
    if (caller == Caller.PLAIN_THREAD) {
      Thread thread = new Thread(run, "hostile-plain-caller");
      thread.setDaemon(true);
      thread.start();
    } else {
      context(caller).runOnContext(v -> run.run());
    }
    try {
      return result.get(CALL_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause();
    } catch (TimeoutException e) {
      throw new HungCall("the call from " + caller + " did not return within " + CALL_SECONDS
          + " s");
    }
  }

  /** A call into the API that blocked its caller. */
  static final class HungCall extends Exception {
    HungCall(String message) {
      super(message);
    }
  }
}
