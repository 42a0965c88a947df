package io.rackfabric.persistence;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** persistence's architecture, as docs/layering.md states it. */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.rackfabric.persistence");

  @Test
  void shouldHaveNoPackageCyclesWhenEachPackageIsASlice() {
    slices().matching("io.rackfabric.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void shouldUseOnlyFabricActorsWhenItReachesAnotherModule() {
    noClasses().should().dependOnClassesThat(resideInAnyPackage(
            "io.rackfabric.host..", "io.rackfabric.cluster..", "io.rackfabric.loadtests.."))
        .check(CLASSES);
  }

  @Test
  void shouldReachTheJournalSerializerOnlyThroughConfigWhenAPackageHoldsJournaledRecords() {
    // reference.conf binds Journaled to JournalSerializer; the id table imports every record.
    noClasses().that().resideOutsideOfPackages("io.rackfabric.persistence.kryo..", "io.rackfabric.persistence.replay..")
        .should().dependOnClassesThat().resideInAPackage("io.rackfabric.persistence.kryo..")
        .check(CLASSES);
  }
}
