/**
 * vertx-rpma: librpma (remote persistent memory over RDMA) on the Vert.x 5 event loop.
 * The API ({@code dev.rpma.vertx}) and the SPI-like {@code dev.rpma.vertx.internal} are
 * exported; {@code dev.rpma.vertx.impl.*} is not, so nothing outside can come to depend on it.
 * On the module path, io_uring is optional as in vertx-core: add
 * {@code --add-modules io.netty.transport.classes.io_uring} with its jars to use that loop.
 */
module dev.rpma.vertx {
  requires transitive io.vertx.core;
  requires io.vertx.core.logging;
  requires io.netty.buffer;
  requires io.netty.common;
  requires io.netty.transport;
  requires io.netty.transport.unix.common;
  requires io.netty.transport.classes.epoll;
  requires static io.netty.transport.classes.io_uring;
  // the options' @DataObject/@JsonGen annotations: compile time only, as in vertx-core
  requires static io.vertx.codegen.api;
  requires static io.vertx.codegen.json;

  exports dev.rpma.vertx;
  exports dev.rpma.vertx.internal;
}
