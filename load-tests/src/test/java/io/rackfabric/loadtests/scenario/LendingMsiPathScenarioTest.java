package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bundled streams through a loan with the borrower's loan DMA check on (the default) and off:
 * the borrow sets up the GPU's MSI path to its driver's MSI word (from the scenario's gpu-copies),
 * CH2's IOMMU opens that page with the borrow, on both planes' IDs, so every MSI of the stream
 * passes (in lending-borrower-link-fails before the fail-over and after it); nothing of the GPU's
 * is blocked, and every model and count figure is that of the run without the check.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingMsiPathScenarioTest {

  private static final String MODE = "mode = single-jvm";
  private static final Pattern FIGURES = Pattern.compile("(figures = \\[[^\\]]*?) *\\]");

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"lending-borrower-link-fails", "lending-mmh-takeover", "lending-lender-dies"})
  void shouldPassEveryMsiThroughTheLoansMsiPathAndKeepTheFiguresOfAnUncheckedRunWhenTheCheckIsOn(String scenario)
      throws Exception {
    Outcome checked = run(scenario, "checked", "");
    Outcome unchecked = run(scenario, "unchecked",
        "settings { rackfabric.host.controlplane.client.loan-dma-check = off }");

    assertTrue(checked.passed(), DeterminismScenarioTest.modelOutcome(checked).toString());
    LoanStepResult borrow = checked.result().loans().get(1);
    assertTrue(borrow.accepted() && borrow.events().stream().anyMatch(e -> e.startsWith(
        "MsiPathOpened[device=gpu1, borrower=ch2, msiAddress=" + 0x1_1000_0000L + ",")),
        "the borrow set up the MSI path to CH2's MSI word: " + borrow);
    List<LoanStepResult> returns = checked.result().loans().stream()
        .filter(l -> l.step().kind() == LoanStep.Kind.RETURN && l.accepted()).toList();
    assertTrue(returns.stream().allMatch(r -> r.events().get(0).startsWith("MsiPathClosed[device=gpu1, borrower=ch2")),
        "an accepted return tore it down: " + returns);
    Map<String, Double> figures = TakeoverDeterminismTest.modelAndCount(checked);
    assertTrue(figures.keySet().stream().noneMatch(n -> n.startsWith("iommu.")),
        "nothing of the GPU's blocked at CH2's root: " + figures);
    assertEquals(TakeoverDeterminismTest.modelAndCount(unchecked), figures,
        "the check changes no model figure of the stream");
  }

  /** The bundled scenario with the {@code iommu} figures, and {@code settings} after its mode. */
  private Outcome run(String scenario, String name, String settings) throws Exception {
    String text = ScenarioLoader.text(scenario);
    Matcher figures = FIGURES.matcher(text);
    assertTrue(figures.find() && text.contains(MODE), "the scenario's figures and mode");
    Path file = dir.resolve(scenario + "-" + name + ".conf");
    Files.writeString(file, figures.replaceFirst("$1, iommu ]").replace(MODE, MODE + "\n  " + settings));
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(scenario + "-" + name),
        ScenarioRunnerTest.quiet());
  }
}
