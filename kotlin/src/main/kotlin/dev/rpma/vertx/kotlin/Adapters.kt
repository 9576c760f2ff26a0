package dev.rpma.vertx.kotlin

import java.lang.ref.WeakReference
import java.util.WeakHashMap

/**
 * One adapter per library object, for wrappers that take over the object's handlers (a second
 * `suspending()` must give back the first adapter, not steal its handlers) or that hold state a
 * caller expects to find again (a connection's abandoned-receive handler).
 *
 * Both sides are weak: the library object keeps its adapter alive through the handlers the
 * adapter set on it (or the caller keeps it), and an entry goes once the object is unreachable.
 */
internal class Adapters<J : Any, K : Any>(private val make: (J) -> K) {

  private val adapters = WeakHashMap<J, WeakReference<K>>()

  fun of(java: J): K = synchronized(adapters) {
    adapters[java]?.get() ?: make(java).also { adapters[java] = WeakReference(it) }
  }
}
