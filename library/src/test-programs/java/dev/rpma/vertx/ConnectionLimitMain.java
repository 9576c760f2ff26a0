package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A client in its own JVM, under a limit ConnectionLimitsTest sets (prlimit): connects to the
 * server at {@code ip port} once and closes (so the classes of a connection are loaded before
 * the limit, as in a process that has served before), prints {@code READY}, waits for a line
 * on stdin when {@code waitForGo}, then connects again and again, at most {@code max} times,
 * until a connect fails: prints {@code CONNECTED n} and {@code CONNECT-FAILED n <message>}
 * (n: the connections open before the failure), closes them all (a crash or a hang would show
 * as no {@code CLOSED-ALL}) and exits 0.
 */
public final class ConnectionLimitMain {

  private ConnectionLimitMain() {
  }

  public static void main(String[] args) throws Exception {
    String ip = args[0];
    int port = Integer.parseInt(args[1]);
    int max = Integer.parseInt(args[2]);
    boolean waitForGo = Boolean.parseBoolean(args[3]);
    System.out.println("STARTED"); // progress, for the reader of a failure
    Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
    RpmaPeer peer = await(RpmaPeer.open(vertx, ip));
    System.out.println("PEER " + peer.deviceName());
    ConnectionOptions options = new ConnectionOptions().setTimeoutMs(10_000);
    await(await(peer.connect(new RpmaConnectOptions().setHost(ip).setPort(port)
        .setConnectionOptions(options))).close());
    System.out.println("READY");
    if (waitForGo) {
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    List<RpmaConnection> open = new ArrayList<>();
    String failure = null;
    while (open.size() < max && failure == null) {
      Future<RpmaConnection> connect = peer.connect(new RpmaConnectOptions().setHost(ip)
          .setPort(port).setConnectionOptions(options));
      await(connect.otherwiseEmpty()); // completed either way, within the deadline
      if (connect.succeeded()) {
        open.add(connect.result());
      } else {
        failure = connect.cause().getClass().getSimpleName() + ": " + connect.cause().getMessage();
      }
    }
    System.out.println("CONNECTED " + open.size());
    if (failure != null) {
      System.out.println("CONNECT-FAILED " + open.size() + " " + failure);
    }
    for (RpmaConnection c : open) {
      await(c.close());
    }
    System.out.println("CLOSED-ALL");
    await(vertx.close());
    System.exit(0);
  }

}
