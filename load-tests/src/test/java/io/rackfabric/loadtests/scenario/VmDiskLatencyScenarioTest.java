package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.figure.DiskLatencyFigures;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-vm-disk-latency (Device Lending, Figure 19's latency rows), with fewer reads:
 * local, borrowed (NatRem) and a VM on the borrower (VMRem), whose MSI-X the lender's handler
 * forwards; what the VM's extra latency is made of.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class VmDiskLatencyScenarioTest {

  static final int COUNT = 20;
  static final String HANDLER = "rackfabric.host.vm.lender-handler-latency";
  static final String INJECTION = "rackfabric.host.vm.guest-injection-latency";

  @TempDir Path dir;

  @Test
  void shouldReadSlowerInAVmThanOnTheBorrowerByTheForwardingPathAndAlikeWhenRunTwice() throws Exception {
    Outcome first = run(ScenarioOptions.NONE, "a");
    Outcome second = run(ScenarioOptions.NONE, "b");

    Map<String, Double> disk = disk(first);
    assertEquals(disk, disk(second), "two runs give identical figures");
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(COUNT, disk.get("disk.vm.reads"));
    assertTrue(disk.get("disk.borrowed.latency_min_ns") > disk.get("disk.local.latency_max_ns"), disk.toString());
    assertTrue(disk.get("disk.vm.latency_min_ns") > disk.get("disk.borrowed.latency_max_ns"),
        "every VM read slower than every borrowed one: " + disk);
    double vmMinusBorrowed = disk.get("disk.vm_minus_borrowed_ns");
    assertEquals(disk.get("disk.vm.latency_median_ns") - disk.get("disk.borrowed.latency_median_ns"),
        vmMinusBorrowed);
    // The handler's and the injection's delays (2 us each by default), and the MSI-X's detour through
    // the lender's root before it crosses the NTB, which the native borrower's message does not take.
    assertTrue(vmMinusBorrowed > 4_000, "the forwarding path: " + disk);
    assertTrue(new DiskLatencyFigures().paperValues(first.result()).get("disk.vm_minus_borrowed_ns")
        .contains("only increases the latency slightly"));
  }

  @Test
  void shouldMoveOnlyTheVmsLatencyByTheForwardingDelaysWhenTheyChange() throws Exception {
    Map<String, Double> low = disk(run(settings("2us", "2us"), "low"));
    Map<String, Double> high = disk(run(settings("2500ns", "3us"), "high"));

    assertEquals(low.get("disk.borrowed.latency_median_ns"), high.get("disk.borrowed.latency_median_ns"),
        "a native borrower's MSI-X goes straight across the NTB: " + low + " vs " + high);
    assertEquals(1_500, high.get("disk.vm_minus_borrowed_ns") - low.get("disk.vm_minus_borrowed_ns"),
        "the handler's and the injection's delays are on every VM read: " + low + " vs " + high);
  }

  @Test
  void shouldNameTheValueWhenAVmDriversAddressIsBad() throws Exception {
    assertContains(problem("buffer = { guest = \"0x1_0000\" }", "buffer = { guest = \"0x900_0000\" }"),
        "vm=guest: guest-physical 0x9000000 is outside its memory [0x0, +128MiB)");
    assertContains(problem("to = \"0xC_0002_0000\"", "to = \"0xC_0005_0000\""),
        "msi.forward.to=0xC00050000: the lender's write is");
    assertContains(problem("to = \"0xC_0002_0000\"", "to = \"0xC_0005_0000\""),
        "it must reach borrower at msi.host=0x200020000");
    assertContains(problem("driver = borrower, vm = guest", "driver = lender, vm = guest"),
        "vm=guest runs on borrower, not on driver=lender");
  }

  /** The bundled file with {@code from} replaced by {@code to}: the loader's message. */
  private String problem(String from, String to) throws Exception {
    String text = ScenarioLoader.text("lending-vm-disk-latency");
    assertTrue(text.contains(from), from);
    Path file = dir.resolve("bad.conf");
    Files.writeString(file, text.replace(from, to));
    Exception e = assertThrows(Exception.class, () -> ScenarioLoader.load(file, ScenarioRunnerTest.KINDS,
        ScenarioOptions.NONE));
    return e.getMessage();
  }

  private static ScenarioOptions settings(String handler, String injection) {
    return new ScenarioOptions(null, null, null, Map.of(), null, Map.of(HANDLER, handler, INJECTION, injection));
  }

  private Outcome run(ScenarioOptions options, String name) throws Exception {
    return DiskLatencyScenarioTest.run(dir, "lending-vm-disk-latency", 3, COUNT, options, name);
  }

  private static Map<String, Double> disk(Outcome o) {
    return DiskLatencyScenarioTest.disk(o);
  }
}
