/**
 * The cluster's directory of servers ({@code RpmaDirectory}): publications kept in the cluster
 * manager's map, found by name, withdrawn with their server or their node, and connections made
 * by name ended when the cluster manager reports the publishing node gone. Built on the public
 * API, vertx-core's {@code ClusterManager} SPI and {@code impl.DirectoryHooks}; loaded by nothing
 * else, and running only once a directory is made on a clustered Vert.x.
 */
package dev.rpma.vertx.impl.cluster;
