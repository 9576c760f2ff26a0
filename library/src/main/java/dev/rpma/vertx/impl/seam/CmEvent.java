package dev.rpma.vertx.impl.seam;

/** librpma's connection events (enum rpma_conn_event), and NONE when nothing is pending. */
public enum CmEvent {
  NONE, ESTABLISHED, CLOSED, LOST, REJECTED, UNREACHABLE, UNDEFINED
}
