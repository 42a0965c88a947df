package io.rackfabric.loadtests;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.TOP_LEVEL_CLASSES;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
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

/** load-tests' architecture, as docs/layering.md states it. */
class LayeringTest {

  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.rackfabric.loadtests");

  /** The command line: cli packages, and top-level *Command classes (not an actor's nested Command). */
  private static final DescribedPredicate<JavaClass> CLI = resideInAPackage("..cli..")
      .or(belongTo(simpleNameEndingWith("Command").and(TOP_LEVEL_CLASSES)))
      .as("the command line");

  /**
   * Classes that use the command line today: Replay's usage errors. The picocli conversion, which
   * moved the command line into cli packages, is where they part; a class leaves this list when it
   * does (the bench package's did with `rack bench`, CampaignLoader's and ChaosRunner's with `rack run`).
   */
  private static final DescribedPredicate<JavaClass> USES_CLI_TODAY = DescribedPredicate.describe(
      "a class known to use the command line", c -> c.getName().matches("io\\.rackfabric\\.loadtests\\."
          + "(scenario\\.Replay)(\\$.*)?"));

  @Test
  void shouldHaveNoPackageCyclesWhenEachPackageIsASlice() {
    slices().matching("io.rackfabric.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void shouldNotUseTheCommandLineWhenAClassIsDomainLogic() {
    noClasses().that(not(CLI)).and(not(USES_CLI_TODAY)).should().dependOnClassesThat(CLI).check(CLASSES);
  }

  @Test
  void shouldSeeOnlyTheScenarioApiWhenAClassIsAFaultFigureOrInvariantKind() {
    noClasses().that(not(CLI)).and(resideInAnyPackage("io.rackfabric.loadtests.scenario.api..",
            "io.rackfabric.loadtests.scenario.fault..", "io.rackfabric.loadtests.scenario.figure..",
            "io.rackfabric.loadtests.scenario.invariant..", "io.rackfabric.loadtests.scenario.ftgm.."))
        .should().dependOnClassesThat().resideInAPackage("io.rackfabric.loadtests.scenario")
        .because("the scenario package (runner, kinds registry, the run's files) sits above the kinds")
        .check(CLASSES);
  }

  @Test
  void shouldUseNoOtherLoadTestsPackageWhenAClassWritesReportsOrHtml() {
    noClasses().that().resideInAPackage("io.rackfabric.loadtests.report..")
        .should().dependOnClassesThat(resideInAPackage("io.rackfabric.loadtests..")
            .and(not(resideInAPackage("io.rackfabric.loadtests.report.."))))
        .check(CLASSES);
  }

  @Test
  void shouldKeepEveryRackCommandInTheModulesCliPackageWhenOneIsAdded() {
    classes().that().implement(RackCommand.class).should().resideInAPackage("io.rackfabric.loadtests.cli").check(CLASSES);
  }
}
