package dev.rpma.vertx;

import io.vertx.core.Vertx;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.logging.Logger;

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
        .compose(peer -> peer.listen(port, ip, new ConnectionOptions(),
            req -> req.accept(null).onComplete(ar -> outcomes.println(ar.succeeded()
                ? "ACCEPTED" : "ACCEPT-FAILED " + ar.cause().getMessage()))))
        .onSuccess(server -> {
          // a server that has logged before, as one in production: java.util.logging loads
          // what its first line needs (time zones) now, so what the library logs at the limit
          // is seen (an exception escaping to Vert.x, say: ./dev test checks for those)
          Logger.getLogger(FdLimitServerMain.class.getName()).info("listening on " + port);
          System.out.println("LISTENING");
        })
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(2);
        });
  }
}
