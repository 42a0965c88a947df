package io.rackfabric.loadtests.cli;

import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.loadtests.chaos.CampaignLoader;
import io.rackfabric.loadtests.chaos.ChaosCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rack chaos CAMPAIGN [--run-dir D] [--json OUT] [--check]}: picocli parses the flags, then
 * {@link ChaosCommand} runs the campaign (its exit statuses are this command's).
 */
@Command(name = "chaos", showDefaultValues = true,
    description = {"run a campaign: scenarios x seeds, in parallel where the machine allows; a summary and the"
        + " failing runs' replay lines",
        "Exit 0 when every run passed, 1 when one failed, 2 for a bad campaign (nothing started);"
        + " 130 or 143 when interrupted."})
public final class ChaosRackCommand extends PicocliRackCommand {

  // A list checked in call(), so that a missing or extra campaign gets the message naming the bundled ones.
  @Parameters(paramLabel = "CAMPAIGN", arity = "0..*", completionCandidates = Bundled.class,
      showDefaultValue = Help.Visibility.NEVER,
      description = "a campaign file (CAMPAIGN.conf) or a bundled name: ${COMPLETION-CANDIDATES}")
  List<String> campaign = new ArrayList<>();

  @Option(names = "--run-dir", paramLabel = "D",
      description = "the folder of the campaign's runs (default: target/rack-chaos/NAME-TIME)")
  Path runDir;

  @Option(names = "--json", paramLabel = "OUT", description = "also write the campaign's runs as JSON to OUT")
  Path json;

  @Option(names = "--check", description = "only load and check the campaign, run nothing")
  boolean check;

  /** The bundled campaigns, for the help text and bash completion. */
  static final class Bundled implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return CampaignLoader.BUNDLED.iterator();
    }
  }

  @Override
  public Integer call() throws Exception {
    if (campaign.size() != 1) {
      throw new UsageException("expected one campaign file or bundled name (bundled: "
          + String.join(", ", CampaignLoader.BUNDLED) + "), got " + campaign);
    }
    return new ChaosCommand().run(campaign.get(0), runDir, json, check, out, err);
  }
}
