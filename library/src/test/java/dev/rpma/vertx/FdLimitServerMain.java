package dev.rpma.vertx;

import io.vertx.core.Vertx;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * A server in its own JVM, whose fd limit the test lowers from outside (prlimit): accepts every
 * request and appends each outcome to a file opened once at start (so that writing it needs no
 * new fd): {@code ACCEPTED}, or {@code ACCEPT-FAILED <why>}. Prints LISTENING when ready; runs
 * until killed.
 */
public final class FdLimitServerMain {

  private FdLimitServerMain() {
  }

  public static void main(String[] args) throws IOException {
    String ip = args[0];
    int port = Integer.parseInt(args[1]);
    PrintWriter outcomes = new PrintWriter(new FileWriter(args[2]), true);
    Vertx vertx = RdmaTestSupport.nativeVertx(); // the parent's transport
    RpmaPeer.open(vertx, ip)
        .compose(peer -> peer.listen(ip, port, new ConnectionOptions(),
            req -> req.accept(null).onComplete(ar -> outcomes.println(ar.succeeded()
                ? "ACCEPTED" : "ACCEPT-FAILED " + ar.cause().getMessage()))))
        .onSuccess(server -> System.out.println("LISTENING"))
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(2);
        });
  }
}
