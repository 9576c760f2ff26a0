package dev.rpma.vertx.impl.engine;

import dev.rpma.vertx.impl.seam.LoopIo;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.RpmaException;
import io.vertx.core.Future;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.logging.Logger;
import io.vertx.core.internal.logging.LoggerFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * A server's listener on its event loop: the endpoint's fd watched; each readiness takes every
 * pending connection request (until none is left) and hands it out; accepts and rejects; the
 * close. Loop-confined (except {@link ServerRequest#offer}).
 *
 * <p>Nothing leaks and nothing hangs at the close: it stops taking requests and lets go of the
 * fd, deletes the requests nobody answered (their clients hear now, not at their connect
 * timeouts; their receives fail), waits for the accepts in progress (their connections owned or
 * deleted), closes what was accepted, then shuts the endpoint down on a worker. A request
 * answered after that is refused with "the server is closed".
 */
public final class ServerEngine {

  private static final Logger LOG = LoggerFactory.getLogger(ServerEngine.class);

  /** What the facade gives: the user's side of a server. */
  public interface Owner {
    /** A request to hand to the user's handler (what it throws closes the listener). */
    void request(ServerRequest request);

    /** Why the process cannot take an accept's fds just now, or null (FdHeadroom). */
    RuntimeException lackingFds();

    /** Why a request could not be taken with this errno, with the fix; null if unknown. */
    String limitHint(int errno);

    /** Closes what it accepted; the server's close waits for it. */
    Future<Void> closeAccepted();

    /** The server is closed: nothing of it is left (owners and the shared queue let go). */
    void closed();
  }

  private final ContextInternal context;
  private final String description;
  private final LoopIo io;
  private final SetupCalls setup;
  private final LibrpmaEndpoint endpoint;
  private final Owner owner;
  /** Handed out and not settled yet: waiting for an answer, or being accepted. */
  private final Set<ServerRequest> open = new LinkedHashSet<>();
  private LoopIo.FdWatch watch;
  private Future<Void> closing;

  /** {@code description}: "listener on port N", for messages. */
  public ServerEngine(ContextInternal context, String description, LoopIo io, SetupCalls setup,
      LibrpmaEndpoint endpoint, Owner owner) {
    this.context = context;
    this.description = description;
    this.io = io;
    this.setup = setup;
    this.endpoint = endpoint;
    this.owner = owner;
  }

  /** Watches the endpoint's fd; on the loop. A failure leaves the endpoint to {@link #close}. */
  public Future<Void> start() {
    int fd;
    try {
      fd = endpoint.fd();
    } catch (RuntimeException e) {
      return context.failedFuture(e);
    }
    EventPathGuard guard = new EventPathGuard(description, this::failed);
    watch = io.watch(fd, guard.wrap(this::onReadable));
    return watch.start();
  }

  private void onReadable() {
    while (closing == null) {
      LibrpmaRequest librpma;
      try {
        librpma = endpoint.nextRequest();
      } catch (LibrpmaEndpoint.NotARequest e) {
        // that accept's Future said why already; one line per failure is enough
        LOG.debug(description + ": a connection-manager event that is not a connection request"
            + " (left by a request whose accept failed, or the device going away): "
            + e.getMessage());
        continue;
      } catch (RpmaException e) {
        String why = owner.limitHint(e.errno());
        LOG.warn(description + ": a connection request could not be taken (its client's connect"
            + " fails): " + e.getMessage() + "." + (why == null ? "" : " Why: " + why));
        return;
      }
      if (librpma == null) {
        return;
      }
      ServerRequest request;
      try {
        request = new ServerRequest(librpma, librpma.privateData());
      } catch (Throwable t) {
        // a request nobody holds would keep its client waiting for its connect timeout, and its
        // queue pair and CQ: rejected now (then the guard closes the listener)
        librpma.delete();
        throw t;
      }
      open.add(request);
      owner.request(request);
    }
  }

  /**
   * An exception escaped the listener's path: requests would go on arriving with nobody to take
   * them (their clients waiting for their connect timeouts), so the server closes, saying why.
   */
  private void failed(Throwable t) {
    LOG.error(description + " failed on its event loop; the server is closed", t);
    close();
  }

  /**
   * Accepts {@code request}: {@code connect} is given the librpma request and the receives
   * posted on it, and consumes the request (connected, or deleted, its receives failed). Refused
   * (the request deleted) if it was answered, the server is closed, or the process has no fds
   * for the connection. On the loop.
   */
  public <T> Future<T> accept(ServerRequest request,
      BiFunction<LibrpmaRequest, List<QueuedOp>, Future<T>> connect) {
    List<QueuedOp> receives = request.answer();
    if (receives == null) {
      return context.failedFuture(new IllegalStateException(closing != null
          ? "the server is closed" : "this request was already answered"));
    }
    if (closing != null) {
      refuse(request, receives, "the server is closed");
      return context.failedFuture(new IllegalStateException("the server is closed"));
    }
    RuntimeException noFds = owner.lackingFds();
    if (noFds != null) {
      refuse(request, receives, "the request was rejected: " + noFds.getMessage());
      return context.failedFuture(noFds);
    }
    Future<T> accepted;
    try {
      accepted = connect.apply(request.librpma, receives);
    } catch (RuntimeException e) {
      accepted = context.failedFuture(e);
    }
    // it may complete on the user's context: the bookkeeping is the loop's
    return accepted.onComplete(ar -> {
      if (context.inThread()) {
        settled(request);
      } else {
        context.runOnContext(v -> settled(request));
      }
    });
  }

  /** Rejects {@code request} if nobody answered it yet; on the loop. */
  public void reject(ServerRequest request) {
    List<QueuedOp> receives = request.answer();
    if (receives != null) {
      refuse(request, receives, "the request was rejected");
    }
  }

  private void refuse(ServerRequest request, List<QueuedOp> receives, String why) {
    try {
      request.librpma.delete(); // its client's connect fails now
    } finally {
      ServerRequest.failReceives(receives, why);
      settled(request);
    }
  }

  private void settled(ServerRequest request) {
    open.remove(request);
    request.settle();
  }

  /** The requests handed out and not settled yet (answered or not). */
  int openRequests() {
    return open.size();
  }

  /** Closes the server (see the class comment); on the loop. Idempotent. */
  public Future<Void> close() {
    if (closing != null) {
      return closing;
    }
    List<Future<Void>> accepting = new ArrayList<>();
    // no readiness after this: the loop stops calling a listener that takes nothing
    Future<Void> unwatched = watch != null ? watch.unwatch() : context.succeededFuture();
    closing = unwatched; // set before the rejects below: nothing is accepted from now on
    for (ServerRequest request : List.copyOf(open)) {
      List<QueuedOp> receives = request.answer();
      if (receives != null) {
        refuse(request, receives, "the request was rejected: the server is closed");
      } else {
        accepting.add(request.settled());
      }
    }
    closing = unwatched
        .transform(ar -> Future.join(accepting))
        .transform(ar -> owner.closeAccepted())
        .transform(ar -> setup.run(context, endpoint::shutdown))
        .onComplete(ar -> owner.closed());
    return closing;
  }
}
