package dev.rpma.examples

import kotlin.system.exitProcess

/**
 * The persistent log with the Kotlin coroutine client: the same server, run, verification and
 * report as [PersistentLog], with [KotlinLogClient] appending.
 *
 * ```
 * ./dev rdma -- java -cp ... dev.rpma.examples.KotlinLogKt --records=2000 --window=16
 * ```
 */
fun main(args: Array<String>) {
  exitProcess(LogRun.main(args) { settings -> KotlinLogClient(settings) })
}
