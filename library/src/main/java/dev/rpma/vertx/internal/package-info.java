/**
 * Public but not API: what the project's own modules (the benchmarks, the coming Kotlin module)
 * need from inside the library. No compatibility promise; applications should not use it.
 * Everything here goes through the library's checked paths; nothing hands out raw natives.
 */
package dev.rpma.vertx.internal;
