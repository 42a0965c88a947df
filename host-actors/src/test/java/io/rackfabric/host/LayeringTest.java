package io.rackfabric.host;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** host-actors' architecture, as docs/layering.md states it. */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.rackfabric.host");

  @Test
  void shouldHaveNoPackageCyclesWhenEachPackageIsASlice() {
    slices().matching("io.rackfabric.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void shouldUseNeitherClusterConfigNorLoadTestsWhenItReachesAnotherModule() {
    noClasses().should().dependOnClassesThat(resideInAnyPackage("io.rackfabric.cluster..", "io.rackfabric.loadtests.."))
        .check(CLASSES);
  }

  @Test
  void shouldNotUseTheFtgmFirmwareWhenAClassIsPartOfTheNic() {
    // FTGM runs on the NIC; the NIC's event queue is the fabric's (fabric.time), not FTGM's.
    noClasses().that().resideInAPackage("io.rackfabric.host.nic..")
        .should().dependOnClassesThat().resideInAPackage("io.rackfabric.host.ftgm..")
        .check(CLASSES);
  }
}
