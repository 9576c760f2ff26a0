/**
 * RDMA on the Vert.x event loop: librpma's connections, memory regions and one-sided
 * operations, each operation a {@link io.vertx.core.Future} completed on the caller's context
 * when the device reports its completion, with no thread of the library's own.
 *
 * <h2>Where to start</h2>
 * <ol>
 *   <li>{@link dev.rpma.vertx.RpmaPeer#open RpmaPeer.open(vertx, address)}: the RDMA device that
 *       serves a local address, on a Vert.x running Netty's native epoll or io_uring loop
 *       ({@code new VertxOptions().setPreferNativeTransport(true)}).</li>
 *   <li>{@link dev.rpma.vertx.RpmaPeer#register register} a direct (or mapped) buffer as a
 *       {@link dev.rpma.vertx.MemoryRegion} for its {@link dev.rpma.vertx.MemoryUsage usages}.</li>
 *   <li>A server {@link dev.rpma.vertx.RpmaPeer#listen listens}; each
 *       {@link dev.rpma.vertx.RpmaConnectionRequest} is accepted with private data, usually a
 *       {@link dev.rpma.vertx.RegionOffer}: a region's descriptor and the server's
 *       {@link dev.rpma.vertx.PeerConfig} (create(true) only for memory where RDMA writes land
 *       directly in persistence, create(false) for ordinary memory). A client
 *       {@link dev.rpma.vertx.RpmaPeer#connect connects} and turns the offer into a
 *       {@link dev.rpma.vertx.RemoteMemoryRegion}.</li>
 *   <li>{@link dev.rpma.vertx.RpmaConnection}: {@code read}, {@code write}, {@code flush},
 *       {@code atomicWrite}, {@code send}/{@code recv}, with or without immediate data; its
 *       {@link dev.rpma.vertx.ConnectionOptions} size the queues and set the timeouts, busy
 *       polling included.</li>
 * </ol>
 *
 * <h2>Beyond single operations</h2>
 * <ul>
 *   <li>{@link dev.rpma.vertx.RpmaMessageChannel}: messages as a Vert.x {@code ReadStream} and
 *       {@code WriteStream} of {@code Buffer}s, with credit-based flow control
 *       ({@link dev.rpma.vertx.MessageChannelOptions}).</li>
 *   <li>{@link dev.rpma.vertx.RpmaSharedReceiveQueue}: one set of receives for the connections of
 *       one event loop ({@link dev.rpma.vertx.SharedReceiveQueueOptions}); each
 *       {@link dev.rpma.vertx.SharedReceived} names its connection.</li>
 *   <li>Metrics go through Vert.x's metrics SPI (a provider such as Vert.x Micrometer Metrics);
 *       {@link dev.rpma.vertx.CompletionStats} counts a connection's completion path.</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * Bad arguments fail the Future with {@link java.lang.IllegalArgumentException} or
 * {@link java.lang.IllegalStateException} before anything is posted; librpma failures are
 * {@link dev.rpma.vertx.RpmaException}s, failed operations
 * {@link dev.rpma.vertx.RpmaCompletionException}s, and what was pending when a connection (or
 * shared queue) ended fails with {@link dev.rpma.vertx.RpmaConnectionClosedException} (or
 * {@link dev.rpma.vertx.RpmaQueueClosedException}). TROUBLESHOOTING.md at the project's root
 * lists each with what it means and what to do.
 *
 * <p>Threads: blocking librpma calls run on Vert.x worker threads, completions on the owning
 * event loop; operations may be called from any thread. What a verticle opens is closed when
 * it is undeployed.
 *
 * @since 0.1.0
 */
package dev.rpma.vertx;
