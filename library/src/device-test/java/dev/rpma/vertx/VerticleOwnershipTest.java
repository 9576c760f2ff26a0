package dev.rpma.vertx;

import static dev.rpma.vertx.Await.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a verticle opens is its own: undeploying it releases the peer and its regions. */
@Tag("rdma")
class VerticleOwnershipTest {

  private static final int REGION_MIB = 16;

  /** Opens a peer and registers a region in start(), and keeps both. */
  static final class RegisteringVerticle extends AbstractVerticle {
    final String ip;

    RegisteringVerticle(String ip) {
      this.ip = ip;
    }

    @Override
    public void start(Promise<Void> started) {
      RpmaPeer.open(vertx, ip)
          .compose(peer -> peer.register(ByteBuffer.allocateDirect(REGION_MIB << 20),
              MemoryUsage.WRITE_DST))
          .<Void>mapEmpty()
          .onComplete(started);
    }
  }

  @Test
  void undeployingAVerticleReleasesThePeerAndTheRegionsItMade() {
    String ip = RdmaTestSupport.deviceIp();
    Vertx vertx = RdmaTestSupport.nativeVertx();
    try {
      long before = ProcessResources.pinnedKib();
      String id = await(vertx.deployVerticle(new RegisteringVerticle(ip)));
      long deployed = ProcessResources.pinnedKib();

      await(vertx.undeploy(id));
      long after = ProcessResources.pinnedKib();

      assertTrue(deployed - before >= (REGION_MIB << 10),
          "the region was pinned: VmPin " + before + " -> " + deployed + " kB");
      assertTrue(after - before < 1024,
          "VmPin back after undeploy: " + before + " -> " + deployed + " -> " + after + " kB");
    } finally {
      await(vertx.close());
    }
  }
}
