package dev.rpma.vertx;

import dev.rpma.vertx.HostileCallers.Caller;
import dev.rpma.vertx.HostileCallers.HungCall;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Supplier;

/**
 * How a hostile step calls the API: from a caller picked at random, the call's Future tracked
 * by the ledger, a throw checked against the contract, a call that blocks reported; and, now and
 * then, a close of something picked at random run inside the Future's callback.
 */
final class HostileCalls {

  private final HostileWorld world;

  HostileCalls(HostileWorld world) {
    this.world = world;
  }

  Caller caller() {
    return world.values.pick(List.of(Caller.values()));
  }

  /** Calls {@code call} from {@code caller}; its Future, tracked; null if it threw. */
  <T> Future<T> call(String what, Caller caller, Supplier<Future<T>> call) {
    String named = what + " from " + caller;
    world.note(named);
    try {
      Future<T> future = world.ledger.track(named, world.callers.call(caller, call));
      if (world.values.chance(15)) {
        closeInCallback(named, future);
      }
      return future;
    } catch (HungCall e) {
      world.ledger.violation(named + ": " + e.getMessage());
    } catch (Throwable e) {
      world.ledger.thrown(named, e);
    }
    return null;
  }

  /** A synchronous call (no Future): only what it throws is checked. */
  void run(String what, Caller caller, Runnable call) {
    String named = what + " from " + caller;
    world.note(named);
    try {
      world.callers.call(caller, () -> {
        call.run();
        return null;
      });
    } catch (HungCall e) {
      world.ledger.violation(named + ": " + e.getMessage());
    } catch (Throwable e) {
      world.ledger.thrown(named, e);
    }
  }

  /** A close of something, named: "a closed connection", "the 2nd region", ... */
  record Close(String what, Supplier<Future<Void>> call) {
  }

  /** When {@code future} completes, closes something picked now (on the Future's context). */
  private void closeInCallback(String what, Future<?> future) {
    Close close = pickClose();
    if (close == null) {
      return;
    }
    String named = "a close of " + close.what() + " inside the callback of " + what;
    world.note("  then " + named);
    future.onComplete(ar -> {
      try {
        world.ledger.track(named, close.call().get());
      } catch (RuntimeException e) {
        world.ledger.thrown(named, e);
      }
    });
  }

  /** The close of something picked at random (open or closed); null if there is nothing. */
  Close pickClose() {
    return switch (world.values.below(6)) {
      case 0 -> close("connection", world.connections, c -> c::close);
      case 1 -> close("region", world.regions, r -> r.region()::close);
      case 2 -> close("server", world.servers, s -> s.server()::close);
      case 3 -> close("shared queue", world.queues, q -> q::close);
      case 4 -> close("channel", world.channels, ch -> ch::close);
      default -> close("peer", world.peers, p -> p::close);
    };
  }

  private <T> Close close(String kind, List<T> from,
      java.util.function.Function<T, Supplier<Future<Void>>> close) {
    if (from.isEmpty()) {
      return null;
    }
    int i = world.values.below(from.size());
    return new Close(kind + " #" + i, close.apply(from.get(i)));
  }
}
