package dev.rpma.examples.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rpma.vertx.RpmaConnectOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.RpmaDirectory;
import dev.rpma.vertx.RpmaPeer;
import dev.rpma.vertx.RpmaPublished;
import dev.rpma.vertx.RpmaServer;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which publications the writer takes a server from: never again one it lost the server by. */
class DirectoryServerSetTest {

  private static final String NAME = "replicated-log/10.9.0.2:7501";
  private static final ServerAddress SERVER = new ServerAddress("10.9.0.2", 7501);

  private final Listing directory = new Listing();
  private final DirectoryServerSet set = new DirectoryServerSet(null, directory,
      ReplicatedSettings.NAME_PREFIX);

  @Test
  void aPublishedServerIsFound() {
    directory.published.add(publication("node-a", 0));
    assertEquals(List.of(SERVER), servers());
  }

  @Test
  void thePublicationAServerWasLostByIsPassedOver() {
    directory.published.add(publication("node-a", 0));
    servers();
    set.lost(SERVER);
    assertEquals(List.of(), servers());
  }

  @Test
  void aServerStillUpThatOffersItselfAgainIsFoundAgain() {
    directory.published.add(publication("node-a", 0));
    servers();
    set.lost(SERVER);
    directory.published.set(0, publication("node-a", 1)); // the same node publishes anew
    assertEquals(List.of(SERVER), servers());
  }

  @Test
  void aServerBackOnANewNodeIsFoundWhileTheOldNodesPublicationIsNot() {
    directory.published.add(publication("node-a", 0));
    servers();
    set.lost(SERVER);
    assertEquals(List.of(), servers());
    directory.published.set(0, publication("node-b", 0)); // its host rebooted: a new node
    assertEquals(List.of(SERVER), servers());
  }

  private List<ServerAddress> servers() {
    return set.servers().result();
  }

  private static RpmaPublished publication(String node, int offer) {
    return new RpmaPublished(NAME, SERVER.host(), SERVER.port(), node,
        ("offer " + offer).getBytes(StandardCharsets.US_ASCII));
  }

  /** A directory whose listing is what the test put in it; nothing else is called. */
  private static final class Listing implements RpmaDirectory {

    final List<RpmaPublished> published = new ArrayList<>();

    @Override
    public Future<List<RpmaPublished>> list(String prefix) {
      return Future.succeededFuture(List.copyOf(published));
    }

    @Override
    public Future<RpmaPublished> publish(String name, RpmaServer server, String host,
        byte[] offer) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Future<Void> unpublish(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Future<RpmaPublished> lookup(String name) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Future<RpmaConnection> connect(RpmaPeer peer, String name,
        RpmaConnectOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Future<Void> close() {
      return Future.succeededFuture();
    }
  }
}
