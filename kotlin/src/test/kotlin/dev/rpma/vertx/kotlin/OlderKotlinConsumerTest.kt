package dev.rpma.vertx.kotlin

import dev.rpma.vertx.RpmaPeer
import io.vertx.core.Vertx
import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * A project on Kotlin 1.9 compiles against this module: the module pins its language and API
 * version (kotlin/pom.xml), so its metadata is one the 1.9 compiler reads and it calls no
 * stdlib function newer than that. The consumer (src/test/resources/older-kotlin-consumer)
 * uses the API a user would (use {}, the shared receive queue's Flow, offers, channels) and
 * is compiled by kotlin-compiler-embeddable 1.9.25 in a JVM of its own, against this module's
 * classes, the library's, vertx-core, and the stdlib and kotlinx-coroutines of that Kotlin
 * (target/older-kotlin, copied there by the build).
 */
class OlderKotlinConsumerTest {

  @Test
  fun `a Kotlin 1,9 project compiles against the module`() {
    val olderKotlin = File("target/older-kotlin")
    val compiler = jars(File(olderKotlin, "compiler"))
    val consumerLibraries = jars(File(olderKotlin, "consumer"))
    val classpath = listOf(locationOf(Peer::class.java), locationOf(RpmaPeer::class.java),
        locationOf(Vertx::class.java)) + consumerLibraries
    val source = File("src/test/resources/older-kotlin-consumer/Consumer.kt")
    val out = Files.createTempDirectory("older-kotlin-consumer").toFile()
    try {
      val process = ProcessBuilder(
          File(System.getProperty("java.home"), "bin/java").path,
          "-cp", compiler.joinToString(File.pathSeparator),
          "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
          "-no-stdlib", "-no-reflect", "-jvm-target", "17",
          "-cp", classpath.joinToString(File.pathSeparator),
          "-d", out.path, source.path)
          .redirectErrorStream(true)
          .start()
      val output = process.inputStream.bufferedReader().readText()
      assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the 1.9 compiler did not finish")
      assertEquals(0, process.exitValue(), "the Kotlin 1.9 compiler failed on the consumer:\n$output")
      assertTrue(File(out, "consumer/ConsumerKt.class").isFile,
          "the consumer compiled to no class:\n$output")
    } finally {
      out.deleteRecursively()
    }
  }

  private fun jars(directory: File): List<String> {
    val jars = directory.listFiles { file -> file.name.endsWith(".jar") }?.map { it.path }
    assertTrue(!jars.isNullOrEmpty(),
        "no jars in $directory: the build copies them (mvn test -pl kotlin; see kotlin/pom.xml)")
    return jars!!
  }

  private fun locationOf(type: Class<*>): String =
    File(type.protectionDomain.codeSource.location.toURI()).path
}
