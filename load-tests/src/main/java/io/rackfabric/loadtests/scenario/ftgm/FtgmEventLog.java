package io.rackfabric.loadtests.scenario.ftgm;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.RecoveryEvent;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The detection and recovery events of an ftgm-campaign run, in the run's folder as {@value
 * FtgmCampaignRun#EVENTS_FILE}: one JSON object per line under {@code "events"}, each a step of
 * one fault's run (mode, fault index and seed, model time, card, step, port, detail), faults in
 * campaign order and each fault's steps in model time order. {@link #read} gives them back.
 */
public final class FtgmEventLog {

  /** One recorded step. {@code port} is -1 when the step concerns the whole card. */
  public record Row(String mode, int fault, long seed, String category, long atNs, String nic, String step, int port,
      String detail) {}

  private FtgmEventLog() {}

  public static void write(Path file, List<FtgmCampaignResult.ModeRun> modes) throws IOException {
    StringBuilder b = new StringBuilder("{\"events\": [\n");
    boolean first = true;
    for (FtgmCampaignResult.ModeRun m : modes) {
      String mode = m.mode().name().toLowerCase(Locale.ROOT);
      for (FaultOutcome o : m.table().outcomes()) {
        for (RecoveryEvent e : o.events()) {
          b.append(first ? "  " : ",\n  ");
          first = false;
          b.append("{\"mode\": ").append(quote(mode)).append(", \"fault\": ").append(o.index())
              .append(", \"seed\": ").append(o.seed()).append(", \"category\": ").append(quote(o.category().key()))
              .append(", \"at_ns\": ").append(e.at()).append(", \"nic\": ").append(quote(e.nic()))
              .append(", \"step\": ").append(quote(e.step())).append(", \"port\": ").append(e.port())
              .append(", \"detail\": ").append(quote(e.detail())).append('}');
        }
      }
    }
    b.append(first ? "]}\n" : "\n]}\n");
    AtomicFiles.writeString(file, b.toString());
  }

  private static String quote(String s) {
    return Json.write(s).strip();
  }

  /** Reads an events file, or the one in a run's folder. */
  public static List<Row> read(Path fileOrRunDir) throws IOException {
    Path file = Files.isDirectory(fileOrRunDir) ? fileOrRunDir.resolve(FtgmCampaignRun.EVENTS_FILE) : fileOrRunDir;
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + ": no events file (an ftgm-campaign run writes " + FtgmCampaignRun.EVENTS_FILE
          + " into its run folder)");
    }
    List<Row> rows = new ArrayList<>();
    try {
      Config c = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON)
          .setAllowMissing(false));
      for (Config e : c.getConfigList("events")) {
        rows.add(new Row(e.getString("mode"), e.getInt("fault"), e.getLong("seed"), e.getString("category"),
            e.getLong("at_ns"), e.getString("nic"), e.getString("step"), e.getInt("port"), e.getString("detail")));
      }
    } catch (ConfigException e) {
      throw new IOException(file + ": not an events file: " + e.getMessage(), e);
    }
    return rows;
  }
}
