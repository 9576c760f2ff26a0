package dev.rpma.vertx.impl.loop;

/**
 * Which of Netty's native transports load in this process, for the doctor: the library runs
 * only on an epoll or io_uring event loop. Each answer is null when the transport is available,
 * else why not (Netty's own cause). io_uring is optional, as in vertx-core: its classes may be
 * absent, which is said as such.
 */
public final class NativeTransports {

  private NativeTransports() {
  }

  /** Null if Netty's epoll transport is available; else why not. */
  public static String epollUnavailable() {
    try {
      return io.netty.channel.epoll.Epoll.isAvailable() ? null
          : String.valueOf(io.netty.channel.epoll.Epoll.unavailabilityCause());
    } catch (LinkageError e) {
      return "netty-transport-classes-epoll is not on the class path (" + e + ")";
    }
  }

  /** Null if Netty's io_uring transport is available; else why not. */
  public static String ioUringUnavailable() {
    try {
      return io.netty.channel.uring.IoUring.isAvailable() ? null
          : String.valueOf(io.netty.channel.uring.IoUring.unavailabilityCause());
    } catch (LinkageError e) {
      return "netty-transport-classes-io_uring is not on the class path (" + e + ")";
    }
  }
}
