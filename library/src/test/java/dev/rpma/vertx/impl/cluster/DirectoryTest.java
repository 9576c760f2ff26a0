package dev.rpma.vertx.impl.cluster;

import static dev.rpma.vertx.Await.await;
import static dev.rpma.vertx.Await.awaitFailure;
import static dev.rpma.vertx.Await.waitUntil;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rpma.vertx.ClusteredVertx;
import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaNothingPublishedException;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaPublished;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The directory's logic on a real cluster manager (Hazelcast, two nodes and a third that comes
 * and goes, on loopback): what is published on one node is found on another, withdrawn with its
 * server, its directory or its node, and a connection made by name ends when its node leaves.
 * The servers and connections are the test's own (no device on a host: {@link Links} is the
 * seam); connecting by name over the device runs in the cluster device run
 * (scripts/testbed/cluster-hosts.sh).
 */
class DirectoryTest {

  private static final String CLUSTER = "rpma-directory-test-" + UUID.randomUUID();
  private static Vertx nodeA;
  private static Vertx nodeB;
  private static final TestLinks LINKS = new TestLinks();

  @BeforeAll
  static void cluster() {
    nodeA = await(ClusteredVertx.onLoopback(CLUSTER));
    nodeB = await(ClusteredVertx.onLoopback(CLUSTER));
  }

  @AfterAll
  static void leave() {
    await(Future.join(nodeB.close(), nodeA.close()));
  }

  private static DirectoryImpl directory(Vertx vertx) {
    VertxInternal v = (VertxInternal) vertx;
    return new DirectoryImpl(v, ClusterView.of(v.clusterManager()), LINKS, 50);
  }

  private static String name(String what) {
    return what + "-" + UUID.randomUUID();
  }

  @Test
  void aVertxThatIsNotClusteredIsRefusedSayingHowToClusterIt() {
    Vertx plain = Vertx.vertx();
    try {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> RpmaDirectory.create(plain));
      assertTrue(e.getMessage().contains("buildClustered()"), e.getMessage());
      assertTrue(e.getMessage().contains("RpmaPeer.connect(port, host)"), e.getMessage());
    } finally {
      await(plain.close());
    }
  }

  @Test
  void aServerPublishedOnOneNodeIsFoundByNameOnAnother() {
    String name = name("log/0");
    byte[] offer = {1, 2, 3, 4};
    RpmaPublished published = await(directory(nodeA).publish(name, new TestServer(7301),
        "10.9.0.1", offer));
    RpmaPublished found = await(directory(nodeB).lookup(name));
    assertEquals(published, found);
    assertEquals("10.9.0.1", found.host());
    assertEquals(7301, found.port());
    assertEquals(((VertxInternal) nodeA).clusterManager().getNodeId(), found.nodeId());
    assertArrayEquals(offer, found.offer());
  }

  @Test
  void aNameNothingIsPublishedUnderFailsTheLookupNamingItAndTheFix() {
    String name = name("nothing");
    Throwable e = awaitFailure(directory(nodeB).lookup(name));
    RpmaNothingPublishedException nothing = assertInstanceOf(RpmaNothingPublishedException.class,
        e);
    assertEquals(name, nothing.name());
    assertTrue(e.getMessage().contains("\"" + name + "\""), e.getMessage());
    assertTrue(e.getMessage().contains("publish the server first"), e.getMessage());
  }

  @Test
  void connectingByANameNothingIsPublishedUnderFailsTheSameWay() {
    RpmaPeer noPeer = (RpmaPeer) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {RpmaPeer.class}, (p, m, a) -> {
          throw new AssertionError("nothing to connect to: " + m);
        });
    String name = name("absent");
    Throwable e = awaitFailure(directory(nodeB).connect(noPeer, name, new ConnectionOptions()));
    assertEquals(name, assertInstanceOf(RpmaNothingPublishedException.class, e).name());
  }

  @Test
  void listFindsThePublicationsUnderAPrefixInNameOrder() {
    String prefix = name("set") + "/";
    RpmaDirectory a = directory(nodeA);
    RpmaDirectory b = directory(nodeB);
    await(b.publish(prefix + "2", new TestServer(7302), "10.9.0.3"));
    await(a.publish(prefix + "0", new TestServer(7300), "10.9.0.1"));
    await(a.publish(prefix + "1", new TestServer(7301), "10.9.0.2"));
    await(a.publish(name("other"), new TestServer(7303), "10.9.0.1"));
    List<RpmaPublished> found = await(b.list(prefix));
    assertEquals(List.of(prefix + "0", prefix + "1", prefix + "2"),
        found.stream().map(RpmaPublished::name).toList());
    assertEquals(List.of(7300, 7301, 7302), found.stream().map(RpmaPublished::port).toList());
  }

  @Test
  void aServerThatClosesTakesItsPublicationWithIt() {
    String name = name("closing");
    TestServer server = new TestServer(7400);
    await(directory(nodeA).publish(name, server, "10.9.0.1"));
    await(directory(nodeB).lookup(name));
    server.close();
    RpmaDirectory b = directory(nodeB);
    waitUntil("the closed server's publication is withdrawn",
        () -> b.lookup(name).toCompletionStage().toCompletableFuture()
            .handle((p, e) -> e instanceof RpmaNothingPublishedException).join());
  }

  @Test
  void aClosedServerIsNotPublished() {
    TestServer server = new TestServer(7401);
    server.close();
    Throwable e = awaitFailure(directory(nodeA).publish(name("closed"), server, "10.9.0.1"));
    assertInstanceOf(IllegalStateException.class, e);
    assertTrue(e.getMessage().contains("the server is closed"), e.getMessage());
  }

  @Test
  void unpublishWithdrawsWhatThisDirectoryPublishedOnly() {
    String name = name("mine");
    RpmaDirectory a = directory(nodeA);
    await(a.publish(name, new TestServer(7500), "10.9.0.1"));
    Throwable notMine = awaitFailure(directory(nodeB).unpublish(name));
    assertTrue(notMine.getMessage().contains("published nothing under it"),
        notMine.getMessage());
    await(directory(nodeB).lookup(name)); // still there
    await(a.unpublish(name));
    assertInstanceOf(RpmaNothingPublishedException.class,
        awaitFailure(directory(nodeB).lookup(name)));
  }

  @Test
  void aNewPublicationUnderATakenNameReplacesItAndTheOldServersCloseLeavesItAlone() {
    String name = name("taken");
    TestServer old = new TestServer(7600);
    await(directory(nodeA).publish(name, old, "10.9.0.1"));
    RpmaPublished replacement = await(directory(nodeB).publish(name, new TestServer(7601),
        "10.9.0.2"));
    old.close();
    // the old server's withdrawal is a remove-if-equal of its own entry: a no-op now
    RpmaDirectory b = directory(nodeB);
    await(b.list("")); // a round trip to the map after the close's withdrawal was sent
    assertEquals(replacement, await(b.lookup(name)));
  }

  @Test
  void aDirectoryThatClosesWithdrawsItsPublications() {
    String name = name("directory-closes");
    RpmaDirectory a = directory(nodeA);
    await(a.publish(name, new TestServer(7700), "10.9.0.1"));
    await(a.close());
    assertInstanceOf(RpmaNothingPublishedException.class,
        awaitFailure(directory(nodeB).lookup(name)));
    assertInstanceOf(IllegalStateException.class,
        awaitFailure(a.publish(name, new TestServer(7701), "10.9.0.1")));
  }

  @Test
  void badArgumentsAreRefusedNamingWhatIsWrong() {
    RpmaDirectory a = directory(nodeA);
    TestServer server = new TestServer(7800);
    assertBad(a.publish(" ", server, "10.9.0.1"), "name must not be null or blank");
    assertBad(a.publish("x".repeat(256), server, "10.9.0.1"), "more than 255");
    assertBad(a.publish("n", null, "10.9.0.1"), "server must not be null");
    assertBad(a.publish("n", server, "0.0.0.0"), "is a wildcard");
    assertBad(a.publish("n", server, "not an address!"), "is not an IP address");
    assertBad(a.publish("n", server, "10.9.0.1", new byte[RpmaDirectory.MAX_OFFER + 1]),
        "more than MAX_OFFER");
    assertBad(a.list(null), "prefix must not be null");
    RpmaPeer noPeer = (RpmaPeer) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {RpmaPeer.class}, (p, m, args) -> null);
    assertBad(a.connect(noPeer, "n", new RpmaConnectOptions().setHost("10.9.0.1").setPort(7)),
        "leave them unset");
  }

  private static void assertBad(Future<?> f, String text) {
    Throwable e = awaitFailure(f);
    assertInstanceOf(IllegalArgumentException.class, e);
    assertTrue(e.getMessage().contains(text), e.getMessage());
  }

  @Test
  void aNodeThatLeavesTakesItsPublicationsAndEndsTheConnectionsMadeToThemByName() {
    Vertx nodeC = await(ClusteredVertx.onLoopback(CLUSTER));
    String name = name("leaving");
    RpmaPublished published = await(directory(nodeC).publish(name, new TestServer(7900),
        "10.9.0.3"));
    DirectoryImpl b = directory(nodeB);
    await(b.lookup(name));
    RpmaConnection connection = TestLinks.connection();
    b.watched(connection, published);
    assertEquals(1, b.watchedConnections());

    await(nodeC.close()); // the node leaves the cluster
    waitUntil("the connection to the departed node's server is ended",
        () -> LINKS.ended.containsKey(connection));
    String why = LINKS.ended.get(connection);
    assertTrue(why.contains("reports node " + published.nodeId() + " gone"), why);
    assertTrue(why.contains("\"" + name + "\""), why);
    assertEquals(0, b.watchedConnections());
    Throwable gone = awaitFailure(directory(nodeA).lookup(name));
    assertInstanceOf(RpmaNothingPublishedException.class, gone);
    waitUntil("the departed node's entry is removed from the map",
        () -> await(((VertxInternal) nodeA).sharedData()
            .<String, String>getAsyncMap(ClusterView.MAP_NAME).compose(m -> m.get(name))) == null);
  }

  @Test
  void aConnectionWhoseNodeLeftBeforeItWasWatchedEndsAtOnce() {
    DirectoryImpl b = directory(nodeB);
    RpmaPublished departed = new RpmaPublished(name("gone"), "10.9.0.3", 7901,
        "a-node-that-left", null);
    RpmaConnection connection = TestLinks.connection();
    b.watched(connection, departed);
    assertTrue(LINKS.ended.get(connection).contains("reports node a-node-that-left gone"));
    assertEquals(0, b.watchedConnections());
  }

  /** A server of the test's own: its port, and its close as the library's would report it. */
  static final class TestServer implements RpmaServer {
    private final int port;
    final Promise<Void> closing = Promise.promise();

    TestServer(int port) {
      this.port = port;
    }

    @Override
    public int actualPort() {
      return port;
    }

    @Override
    public Future<Void> close() {
      closing.tryComplete();
      return Future.succeededFuture();
    }
  }

  /** The hooks over the test's servers and connections: what was ended, and why. */
  static final class TestLinks implements Links {
    final Map<RpmaConnection, String> ended = new ConcurrentHashMap<>();

    static RpmaConnection connection() {
      return (RpmaConnection) Proxy.newProxyInstance(DirectoryTest.class.getClassLoader(),
          new Class<?>[] {RpmaConnection.class}, (p, m, a) -> switch (m.getName()) {
            case "hashCode" -> System.identityHashCode(p);
            case "equals" -> p == a[0];
            case "toString" -> "test connection";
            default -> throw new AssertionError("not used: " + m);
          });
    }

    @Override
    public Future<Void> whenClosing(RpmaServer server) {
      return ((TestServer) server).closing.future();
    }

    @Override
    public void peerGone(RpmaConnection connection, String why) {
      ended.put(connection, why);
    }

    @Override
    public Future<Void> whenClosed(RpmaConnection connection) {
      return Promise.<Void>promise().future();
    }

    @Override
    public String checkHost(String what, String host) {
      return Links.LIBRARY.checkHost(what, host);
    }
  }
}
