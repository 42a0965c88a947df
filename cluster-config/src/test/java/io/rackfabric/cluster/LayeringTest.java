package io.rackfabric.cluster;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.TOP_LEVEL_CLASSES;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.rackfabric.cluster.cli.RackCommand;
import org.junit.jupiter.api.Test;

/** cluster-config's architecture, as docs/layering.md states it. */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.rackfabric.cluster");

  /** The command line: cli packages, and top-level *Command classes (not an actor's nested Command). */
  private static final DescribedPredicate<JavaClass> CLI = resideInAPackage("..cli..")
      .or(belongTo(simpleNameEndingWith("Command").and(TOP_LEVEL_CLASSES)))
      .as("the command line");

  @Test
  void shouldHaveNoPackageCyclesWhenEachPackageIsASlice() {
    slices().matching("io.rackfabric.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void shouldNotUseLoadTestsWhenItReachesAnotherModule() {
    noClasses().should().dependOnClassesThat().resideInAPackage("io.rackfabric.loadtests..").check(CLASSES);
  }

  @Test
  void shouldNotUseTheCommandLineWhenAClassIsDomainLogic() {
    noClasses().that(not(CLI)).should().dependOnClassesThat(CLI).check(CLASSES);
  }

  @Test
  void shouldKeepEveryRackCommandInTheModulesCliPackageWhenOneIsAdded() {
    classes().that().implement(RackCommand.class).should().resideInAPackage("io.rackfabric.cluster.cli").check(CLASSES);
  }
}
