package io.rackfabric.fabric;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * fabric-actors' architecture, as docs/layering.md states it: the bottom module, no package cycles,
 * the Kryo implementation out of sight of the messages it carries, and the routing, NTB and
 * model-time logic in plain classes.
 */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.rackfabric.fabric");

  @Test
  void shouldHaveNoPackageCyclesWhenEachPackageIsASlice() {
    slices().matching("io.rackfabric.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void shouldUseNoOtherRackfabricModuleWhenItIsTheBottomModule() {
    noClasses().should().dependOnClassesThat(resideInAPackage("io.rackfabric..")
            .and(not(resideInAPackage("io.rackfabric.fabric.."))))
        .because("fabric-actors is the module every other one builds on")
        .check(CLASSES);
  }

  @Test
  void shouldReachTheKryoImplementationOnlyThroughConfigWhenAPackageSendsMessages() {
    // reference.conf binds WireMessage to the serializer and ServiceLoader finds the id tables:
    // a message package that imported fabric.kryo would close the cycle the id table breaks.
    noClasses().that(not(resideInAPackage("io.rackfabric.fabric.kryo..")))
        .should().dependOnClassesThat(resideInAPackage("io.rackfabric.fabric.kryo.."))
        .check(CLASSES);
  }

  @Test
  void shouldUseNoAkkaWhenAClassIsRoutingNtbOrRootComplexLogic() {
    noClasses().that(resideInAnyPackage("io.rackfabric.fabric.routing..", "io.rackfabric.fabric.ntb..",
            "io.rackfabric.fabric.rootcomplex.."))
        .should().dependOnClassesThat(resideInAPackage("akka.."))
        .check(CLASSES);
  }

  @Test
  void shouldUseNoAkkaWhenAClassIsFabricManagementLogic() {
    // Capabilities, PI-4/PI-5 packets and the discovery walker are plain, driven step by step.
    noClasses().that().resideInAPackage("io.rackfabric.fabric.management..")
        .should().dependOnClassesThat(resideInAPackage("akka.."))
        .check(CLASSES);
  }

  @Test
  void shouldUseNoAkkaWhenAModelTimeClassIsAQueueAClockOrTheSyncGraph() {
    // The keeper, its synchronizer and the ports' PortTime talk to actors; these hold the logic.
    noClasses().that().haveNameMatching(
            "io\\.rackfabric\\.fabric\\.time\\.(EventQueue|InputQueue|ModelClock|SyncGraph|Inflows|Restarts|Waiting)(\\$.*)?")
        .should().dependOnClassesThat(resideInAPackage("akka.."))
        .check(CLASSES);
  }
}
