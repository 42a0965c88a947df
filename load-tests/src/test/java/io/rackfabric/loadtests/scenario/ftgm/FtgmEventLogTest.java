package io.rackfabric.loadtests.scenario.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ftgm.FtgmEventLog.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An events file read back row by row; a file that is not one is refused, naming it. */
class FtgmEventLogTest {

  @TempDir Path dir;

  @Test
  void shouldReadEveryRowWhenGivenARunFolder() throws IOException {
    Files.writeString(dir.resolve(FtgmCampaignRun.EVENTS_FILE), """
        {"events": [
          {"mode": "ftgm", "fault": 3, "seed": -45, "category": "interface-hang", "at_ns": 200300, "nic": "nic", \
        "step": "interrupt", "port": -1, "detail": "watchdog"},
          {"mode": "gm", "fault": 4, "seed": 7, "category": "no-impact", "at_ns": 9, "nic": "nic", \
        "step": "port-reopened", "port": 2, "detail": "port 2"}
        ]}
        """);

    assertEquals(List.of(new Row("ftgm", 3, -45, "interface-hang", 200_300, "nic", "interrupt", -1, "watchdog"),
        new Row("gm", 4, 7, "no-impact", 9, "nic", "port-reopened", 2, "port 2")), FtgmEventLog.read(dir));
  }

  @Test
  void shouldRefuseNamingTheFileWhenItIsNotAnEventsFile() throws IOException {
    Path broken = Files.writeString(dir.resolve("broken.json"), "{\"events\": [ {");
    Path noPort = Files.writeString(dir.resolve("no-port.json"), "{\"events\": [ {\"mode\": \"gm\", \"fault\": 1,"
        + " \"seed\": 2, \"category\": \"c\", \"at_ns\": 3, \"nic\": \"nic\", \"step\": \"s\", \"detail\": \"d\"} ]}");
    Path noEvents = Files.writeString(dir.resolve("no-events.json"), "{}");

    for (Path p : List.of(broken, noPort, noEvents)) {
      String why = assertThrows(IOException.class, () -> FtgmEventLog.read(p)).getMessage();
      assertTrue(why.startsWith(p + ": not an events file"), why);
    }
    assertTrue(assertThrows(IOException.class, () -> FtgmEventLog.read(dir)).getMessage().contains("no events file"));
  }
}
