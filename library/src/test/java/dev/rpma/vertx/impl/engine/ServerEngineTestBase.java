package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.OpKind;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.PromiseInternal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link ServerEngine} on a real Vert.x context, over {@link FakeEndpoint} and
 * {@link FakeLoopIo}: the listener's logic (request loop, accept, reject, close) on the host.
 */
abstract class ServerEngineTestBase extends EngineTestBase {

  FakeEndpoint endpoint;
  ServerEngine server;
  /** The requests handed to the user, in order. */
  final List<ServerRequest> handedOut = new CopyOnWriteArrayList<>();
  /** Why the process has no fds for an accept now; null: it has. */
  volatile RuntimeException lackingFds;
  /** What the server's close of its accepted connections waits for. */
  Promise<Void> acceptedClosed = Promise.promise();
  volatile int closedCalls;

  @BeforeEach
  void setUpServer() {
    endpoint = new FakeEndpoint(log);
    acceptedClosed.complete();
  }

  final ServerEngine.Owner owner = new ServerEngine.Owner() {
    @Override
    public void request(ServerRequest request) {
      handedOut.add(request);
    }

    @Override
    public RuntimeException lackingFds() {
      return lackingFds;
    }

    @Override
    public String limitHint(int errno) {
      return "errno " + errno;
    }

    @Override
    public Future<Void> closeAccepted() {
      log.add("close accepted");
      return acceptedClosed.future();
    }

    @Override
    public void closed() {
      closedCalls++;
    }
  };

  /** A server made and started on the loop. */
  Future<Void> startServer() {
    return onLoop(() -> {
      server = new ServerEngine(context, "listener on port 7", io, SYNC_SETUP, endpoint, owner);
      return server.start();
    });
  }

  /** A started server. */
  void listen() {
    await(startServer());
  }

  /** The listener's fd is readable: it takes what arrived. */
  void readable() {
    onLoop(() -> io.fire(FakeEndpoint.FD));
  }

  /** {@code n} requests arrive and are handed out. */
  List<ServerRequest> arrive(int n) {
    for (int i = 0; i < n; i++) {
      endpoint.arrive();
    }
    readable();
    return List.copyOf(handedOut.subList(handedOut.size() - n, handedOut.size()));
  }

  Future<Void> close() {
    return onLoop(() -> server.close());
  }

  /** Accepts on the loop with {@code connect} standing in for the connection's making. */
  <T> Future<T> accept(ServerRequest request,
      BiFunction<LibrpmaRequest, List<QueuedOp>, Future<T>> connect) {
    return onLoop(() -> server.accept(request, connect));
  }

  /** An accept that connects the request and succeeds at once. */
  Future<String> accept(ServerRequest request) {
    return accept(request, (req, receives) -> {
      req.connect(null, 1);
      return context.succeededFuture("connected");
    });
  }

  void reject(ServerRequest request) {
    onLoop(() -> {
      server.reject(request);
      return null;
    });
  }

  /** A receive of the local region offered on {@code request}; its promise. */
  Future<dev.rpma.vertx.Received> offerReceive(ServerRequest request) {
    PromiseInternal<dev.rpma.vertx.Received> p = context.promise();
    boolean taken = request.offer(new QueuedOp(OpKind.RECV, local.held(), 0, null, 0, 64, 0, p));
    if (!taken) {
      throw new AssertionError("the request took no receive");
    }
    return p.future();
  }

  long count(String entry) {
    return log.stream().filter(entry::equals).count();
  }
}
