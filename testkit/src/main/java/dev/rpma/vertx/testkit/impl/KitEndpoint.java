package dev.rpma.vertx.testkit.impl;

import dev.rpma.vertx.ConnectionOptions;
import dev.rpma.vertx.RpmaConnection;
import dev.rpma.vertx.impl.seam.CmEvent;
import dev.rpma.vertx.impl.seam.LibrpmaConnection;
import dev.rpma.vertx.impl.seam.LibrpmaEndpoint;
import dev.rpma.vertx.impl.seam.LibrpmaRequest;
import dev.rpma.vertx.impl.seam.OpKind;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * A listener of the in-JVM device: the requests of clients, each with its queue pair made (so
 * receives can be posted before the accept), readable while one waits.
 */
final class KitEndpoint implements LibrpmaEndpoint {

  private final KitDevice device;
  private final KitPeer owner;
  private final ConnectionOptions options;
  private final KitSharedQueue shared;
  private final ArrayDeque<Request> requests = new ArrayDeque<>();
  private final KitFd fd;
  private String address;
  private int port;

  KitEndpoint(KitDevice device, KitPeer owner, ConnectionOptions options, KitSharedQueue shared) {
    this.device = device;
    this.owner = owner;
    this.options = options;
    this.shared = shared;
    this.fd = device.newFd(() -> {
      synchronized (device) {
        return !requests.isEmpty();
      }
    });
  }

  void listening(String address, int port) {
    this.address = address;
    this.port = port;
  }

  /** A client's request arrives (under the device's lock). */
  void offer(KitConnection client, byte[] privateData) {
    KitConnection server = new KitConnection(device, owner, options.getRcqSize() > 0, shared);
    requests.add(new Request(client, server,
        padded(privateData, RpmaConnection.MAX_CONNECT_PRIVATE_DATA)));
    fd.poke();
  }

  /**
   * Private data as the RDMA CM hands it over: its message's whole field, what was sent then
   * zeros; all zeros if nothing was sent (as Soft-RoCE delivers it: PrivateDataTest).
   */
  private static byte[] padded(byte[] sent, int field) {
    return sent == null ? new byte[field] : Arrays.copyOf(sent, Math.max(field, sent.length));
  }

  @Override
  public int fd() {
    return fd.number();
  }

  @Override
  public LibrpmaRequest nextRequest() {
    synchronized (device) {
      return requests.poll();
    }
  }

  @Override
  public void shutdown() {
    synchronized (device) {
      device.stopListening(address, port);
      for (Request r : requests) {
        r.delete();
      }
      requests.clear();
    }
    device.closeFd(fd);
  }

  /** A request: the client's end and the server's, not connected yet. */
  private final class Request implements LibrpmaRequest {
    private final KitConnection client;
    private final KitConnection server;
    private final byte[] privateData;

    Request(KitConnection client, KitConnection server, byte[] privateData) {
      this.client = client;
      this.server = server;
      this.privateData = privateData;
    }

    @Override
    public byte[] privateData() {
      return privateData.clone();
    }

    @Override
    public void postReceive(long localMr, long localOffset, long length, long wrId) {
      server.post(OpKind.RECV, localMr, localOffset, 0, 0, length, 0,
          wrId, true);
    }

    @Override
    public LibrpmaConnection connect(byte[] answer, int drainBatch) {
      synchronized (device) {
        device.track(server);
        if (client.isDisconnected()) {
          server.established(client, privateData);
          server.end(CmEvent.CLOSED); // the client gave up meanwhile
          return server;
        }
        server.established(client, privateData);
        client.established(server, padded(answer, RpmaConnection.MAX_ACCEPT_PRIVATE_DATA));
      }
      return server;
    }

    @Override
    public void delete() {
      synchronized (device) {
        // as the RDMA CM when the application rejects: reason 28, consumer defined
        client.event(CmEvent.REJECTED, 28);
      }
      server.delete();
    }
  }
}
