package io.rackfabric.loadtests.chaos;

import io.rackfabric.loadtests.scenario.language.Scenario;
import java.util.List;
import java.util.Map;

/**
 * A checked chaos campaign: every scenario it names, loaded once per seed, and how many runs may
 * go at once. Produced only by {@link CampaignLoader}, so every run it starts was validated.
 *
 * @param runs one per scenario and seed, scenarios in the file's order, seeds ascending
 * @param parallel single-JVM runs at once (multi-JVM runs always go alone: they bind the
 *     topology's ports)
 * @param faultRates the chance per fault kind that each fault of it happens in a run, drawn from
 *     the run's seed (empty: every fault happens); the replay line of a run repeats them
 */
public record Campaign(String name, String source, List<Run> runs, List<Long> seeds, int parallel,
    Map<String, Double> faultRates) {

  public Campaign {
    runs = List.copyOf(runs);
    seeds = List.copyOf(seeds);
    faultRates = Map.copyOf(faultRates);
  }

  /**
   * One run of a campaign.
   *
   * @param argument the scenario as {@code rack run} takes it: a bundled name or an absolute path
   */
  public record Run(String argument, long seed, Scenario scenario) {}
}
