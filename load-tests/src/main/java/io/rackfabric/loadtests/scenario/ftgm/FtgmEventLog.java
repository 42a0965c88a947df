package io.rackfabric.loadtests.scenario.ftgm;

import com.fasterxml.jackson.annotation.JsonProperty;
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
  public record Row(String mode, int fault, long seed, String category, @JsonProperty("at_ns") long atNs, String nic,
      String step, int port, String detail) {}

  /** The file's document. */
  record Events(List<Row> events) {}

  private FtgmEventLog() {}

  public static void write(Path file, List<FtgmCampaignResult.ModeRun> modes) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (FtgmCampaignResult.ModeRun m : modes) {
      String mode = m.mode().name().toLowerCase(Locale.ROOT);
      for (FaultOutcome o : m.table().outcomes()) {
        for (RecoveryEvent e : o.events()) {
          rows.add(new Row(mode, o.index(), o.seed(), o.category().key(), e.at(), e.nic(), e.step(), e.port(),
              e.detail()));
        }
      }
    }
    // One event a line: a campaign holds thousands, and a line is what grep and diff show.
    String text = Json.mapper().writer(Json.OBJECTS_ON_ONE_LINE).writeValueAsString(new Events(rows));
    AtomicFiles.writeString(file, text + "\n");
  }

  /** Reads an events file, or the one in a run's folder. */
  public static List<Row> read(Path fileOrRunDir) throws IOException {
    Path file = Files.isDirectory(fileOrRunDir) ? fileOrRunDir.resolve(FtgmCampaignRun.EVENTS_FILE) : fileOrRunDir;
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + ": no events file (an ftgm-campaign run writes " + FtgmCampaignRun.EVENTS_FILE
          + " into its run folder)");
    }
    Events events;
    try {
      events = Json.read(file, Events.class);
    } catch (IOException e) {
      throw new IOException(file + ": not an events file: " + e.getMessage(), e);
    }
    if (events.events() == null || events.events().contains(null)) {
      throw new IOException(file + ": not an events file: no list of events under \"events\"");
    }
    return events.events();
  }
}
