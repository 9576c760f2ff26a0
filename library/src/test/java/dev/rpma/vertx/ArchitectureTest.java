package dev.rpma.vertx;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.rpma.vertx.impl.ConnectionHooks;
import dev.rpma.vertx.impl.DirectoryHooks;
import dev.rpma.vertx.impl.PeerConfigImpl;
import dev.rpma.vertx.impl.ClassPathVersions;
import dev.rpma.vertx.impl.MappedRegionPersister;
import dev.rpma.vertx.impl.PeerImpl;
import dev.rpma.vertx.impl.doctor.Doctor;
import dev.rpma.vertx.impl.RemoteRegionImpl;
import dev.rpma.vertx.impl.channel.MessageChannels;
import dev.rpma.vertx.impl.cluster.Directories;
import dev.rpma.vertx.impl.durable.DurableWriters;
import dev.rpma.vertx.impl.durable.MappedFilePersister;
import dev.rpma.vertx.impl.durable.PersistResponder;

/**
 * The room table of ARCHITECTURE.md (repository root, section "The rooms"), as rules over the
 * library's main classes: each room, what it may use; no package cycle. The table's "may use"
 * column and these rules say the same thing: change both together. A host test: it reads
 * bytecode and loads no native.
 */
@AnalyzeClasses(packages = "dev.rpma.vertx", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  private static final String API = "dev.rpma.vertx";
  private static final String IMPL = "dev.rpma.vertx.impl";
  private static final String ENGINE = "dev.rpma.vertx.impl.engine..";
  private static final String SEAM = "dev.rpma.vertx.impl.seam..";
  private static final String JNI = "dev.rpma.vertx.impl.jni..";
  private static final String LOOP = "dev.rpma.vertx.impl.loop..";
  private static final String CHANNEL = "dev.rpma.vertx.impl.channel..";
  private static final String DOCTOR = "dev.rpma.vertx.impl.doctor..";
  private static final String DURABLE = "dev.rpma.vertx.impl.durable..";
  private static final String CLUSTER = "dev.rpma.vertx.impl.cluster..";
  private static final String INTERNAL = "dev.rpma.vertx.internal..";
  /** The JDK and Vert.x, which every room may use. */
  private static final String[] PLATFORM = {"java..", "io.vertx.."};

  /**
   * The only impl classes the API names: where its static factories hand over, and the check
   * RpmaPeer.open makes before PeerImpl can link against Vert.x 5 (ClassPathVersions).
   */
  private static final DescribedPredicate<JavaClass> API_FACTORIES = belongToAnyOf(
      PeerImpl.class, PeerConfigImpl.class, RemoteRegionImpl.class, MessageChannels.class,
      DurableWriters.class, PersistResponder.class, MappedFilePersister.class,
      MappedRegionPersister.class, Directories.class,
      ClassPathVersions.class, Doctor.class);

  /** What the native boundary translates of the API: two value types and its error. */
  private static final DescribedPredicate<JavaClass> API_VALUES_FOR_JNI = belongToAnyOf(
      FlushType.class, MemoryUsage.class, RpmaException.class);

  @ArchTest
  static final ArchRule apiReachesImplOnlyThroughItsFactories = classes()
      .that().resideInAPackage(API)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAPackage(API)).or(API_FACTORIES))
      .because("the API is interfaces and values; impl.jni, impl.engine, impl.seam and"
          + " impl.loop are not its business (and jni's classes load the natives)");

  @ArchTest
  static final ArchRule facadesUseTheRoomsBelowThem = classes()
      .that().resideInAPackage(IMPL)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(API, IMPL, ENGINE, SEAM, JNI, LOOP, "io.netty.buffer..")))
      .because("the thin objects wire the engine, the seams' jni side and the loop glue"
          + " (and a region's Buffer view wraps its memory in a Netty ByteBuf, as Vert.x"
          + " makes Buffers); impl.channel is built on them, internal reaches into them");

  /** The objects users hold: they check, own and hand over; librpma is behind seams. */
  private static final String[] FACADES = {"PeerImpl", "ServerImpl", "ConnectionRequestImpl",
      "ConnectionImpl", "SharedReceiveQueueImpl", "MemoryRegionImpl", "RemoteRegionImpl"};

  @ArchTest
  static final ArchRule facadesCallNoNative = noClasses()
      .that().resideInAPackage(IMPL)
      .and(simpleNameIn(FACADES))
      .should().dependOnClassesThat().haveFullyQualifiedName("dev.rpma.vertx.impl.jni.Native")
      .because("a facade stays thin: its librpma calls go through the engine's seams or the"
          + " jni classes that implement them (JniPeer, JniEndpoint, JniConnection, ...),"
          + " where one place translates each call");

  @ArchTest
  static final ArchRule engineUsesTheApiAndTheSeamsOnly = classes()
      .that().resideInAPackage(ENGINE)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(API, ENGINE, SEAM, "io.netty.util..")))
      .because("the engine runs on fakes in host tests: librpma and the loop only through"
          + " impl.seam, no jni, no Netty transport, no facade");

  @ArchTest
  static final ArchRule seamsUseNothingOfTheLibrary = classes()
      .that().resideInAPackage(SEAM)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM).or(resideInAPackage(SEAM)))
      .because("both the engine and the native side implement or call them");

  @ArchTest
  static final ArchRule jniUsesTheSeamsAndTheApiValuesOnly = classes()
      .that().resideInAPackage(JNI)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(JNI, SEAM)).or(API_VALUES_FOR_JNI))
      .because("the native boundary implements the seams over C and knows nothing above them");

  @ArchTest
  static final ArchRule loopGlueUsesTheSeamsJniAndNetty = classes()
      .that().resideInAPackage(LOOP)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(LOOP, SEAM, JNI, "io.netty..")))
      .because("the loop glue is LoopIo over Netty's native loops, nothing else");

  @ArchTest
  static final ArchRule doctorReadsTheMachineThroughJniAndTheLoopGlue = classes()
      .that().resideInAPackage(DOCTOR)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(API, DOCTOR, JNI, LOOP)))
      .because("the doctor reads sysfs and procfs itself, asks devices through JNI and Netty's"
          + " transports through the loop glue; it makes nothing the other rooms own");

  @ArchTest
  static final ArchRule channelUsesThePublicApiAndConnectionHooksOnly = classes()
      .that().resideInAPackage(CHANNEL)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(API, CHANNEL, "io.netty.buffer.."))
          .or(belongToAnyOf(ConnectionHooks.class)))
      .because("the message channel is built on the public connection API (and copies a"
          + " Vert.x Buffer through its Netty ByteBuf)");

  @ArchTest
  static final ArchRule durableAcknowledgementsUseThePublicApiOnly = classes()
      .that().resideInAPackage(DURABLE)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(API, DURABLE)))
      .because("durable acknowledgements are built on the public connection API: a flush,"
          + " or a send and a receive");

  @ArchTest
  static final ArchRule directoryUsesThePublicApiItsHooksAndTheClusterSpi = classes()
      .that().resideInAPackage(CLUSTER)
      .should().onlyDependOnClassesThat(resideInAnyPackage(PLATFORM)
          .or(resideInAnyPackage(API, CLUSTER))
          .or(belongToAnyOf(DirectoryHooks.class, ConnectionHooks.class)))
      .because("the directory is built on the public API and vertx-core's ClusterManager SPI;"
          + " what it needs of a server or a connection beyond the API is in DirectoryHooks");

  @ArchTest
  static final ArchRule implNeverUsesInternal = noClasses()
      .that().resideInAnyPackage(API, IMPL + "..")
      .should().dependOnClassesThat().resideInAPackage(INTERNAL)
      .because("internal is the bench's door into impl; the other way round is a cycle");

  @ArchTest
  static final ArchRule noPackageCycles = slices()
      .assignedFrom(eachPackageASlice())
      .should().beFreeOfCycles()
      .ignoreDependency(resideInAPackage(API), API_FACTORIES)
      .because("layers: a package and what it uses never use each other (the API's factory"
          + " calls aside, which the first rule bounds)");

  private static SliceAssignment eachPackageASlice() {
    return new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        String pkg = javaClass.getPackageName();
        return pkg.equals(API) || pkg.startsWith(API + ".")
            ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
      }

      @Override
      public String getDescription() {
        return "each package of dev.rpma.vertx";
      }
    };
  }

  private static DescribedPredicate<JavaClass> simpleNameIn(String... names) {
    java.util.Set<String> set = java.util.Set.of(names);
    return DescribedPredicate.describe("are one of " + set, c -> set.contains(c.getSimpleName()));
  }
}
