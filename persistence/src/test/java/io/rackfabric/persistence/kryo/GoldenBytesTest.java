package io.rackfabric.persistence.kryo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.kryo.FabricWireRegistrations;
import io.rackfabric.fabric.kryo.WireRegistry;
import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerSnapshot;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.SampleRack;
import io.rackfabric.persistence.wire.SchemaVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bytes written by earlier code, checked in under src/test/resources/golden, must still read.
 * To add the file of a new journaled class, run this test once with
 * {@code -Drackfabric.golden.write=true} and commit the file; never regenerate an existing one.
 */
class GoldenBytesTest {

  private static final Path SOURCE = Path.of("src/test/resources/golden");

  /** The record as version 1 wrote it. */
  record Probe(String host, long at) {}

  /** The same record (same wire id) after it gained two components. */
  @SchemaVersion(2)
  record ProbeV2(String host, long at, int lanes, List<String> tags) {}

  private static VersionedCodec codecWith(Class<?> probeType) {
    WireRegistrations probe = () -> List.of(WireRegistrations.Entry.of(1999, probeType));
    return new VersionedCodec(WireRegistry.of(List.of(
        new FabricWireRegistrations(), new PersistenceWireRegistrations(), probe)));
  }

  private static byte[] golden(String name, byte[] current) throws IOException {
    try (InputStream in = GoldenBytesTest.class.getResourceAsStream("/golden/" + name)) {
      if (in != null) {
        return in.readAllBytes();
      }
    }
    if (Boolean.getBoolean("rackfabric.golden.write")) {
      Files.createDirectories(SOURCE);
      Files.write(SOURCE.resolve(name), current);
      return current;
    }
    throw new AssertionError("golden file " + name + " is missing: run once with"
        + " -Drackfabric.golden.write=true and commit it");
  }

  @Test
  void shouldReadVersionOneBytesWhenRecordGainedComponents() throws IOException {
    byte[] v1 = golden("probe-1999-v1.bin", codecWith(Probe.class).write(new Probe("ch1", 42)));
    Object read = codecWith(ProbeV2.class).read(v1, "1999:v1");
    assertEquals(new ProbeV2("ch1", 42, 0, List.of()), read);
    assertEquals("1999:v2", codecWith(ProbeV2.class).manifest(ProbeV2.class));
  }

  @Test
  void shouldRefuseBytesWhenWrittenByNewerVersionOrForeign() {
    byte[] v2 = codecWith(ProbeV2.class).write(new ProbeV2("ch1", 42, 4, List.of("x")));
    var e = assertThrows(IllegalArgumentException.class,
        () -> codecWith(Probe.class).read(v2, "1999:v2"));
    assertTrue(e.getMessage().contains("manifest=1999:v2"), e.getMessage());
    var foreign = assertThrows(IllegalArgumentException.class,
        () -> VersionedCodec.shared().read(new byte[] {42, 1, 2}, "1000:v1"));
    assertTrue(foreign.getMessage().contains("tag=42"), foreign.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> VersionedCodec.shared().read(new byte[] {0}, "HostAdded"));
  }

  @Test
  void shouldReadEveryCheckedInEventAndSnapshotWhenCodeMovedOn() throws IOException {
    List<ControllerEvent> events = new ArrayList<>();
    ControllerState state = SampleRack.expected(new ArrayList<>());
    ControllerState withLoans = SampleRack.expectedWithLoans(events);
    List<Object> samples = new ArrayList<>();
    for (Class<? extends ControllerEvent> type : ControllerEvent.types()) {
      samples.add(events.stream().filter(type::isInstance).findFirst().orElseGet(() -> removal(type)));
    }
    // Version 4 of the image keeps the step-down that ended a tenure (a state read from its controller);
    // version 5 the loans' MSI paths; version 6 the fabric manager's database.
    ControllerState applied = withLoans.apply(removal(ControllerEvent.RequestApplied.class));
    ControllerState steppedDown = applied.apply(removal(ControllerEvent.SteppedDown.class));
    ControllerState withMsiPaths = applied.apply(removal(ControllerEvent.MsiPathOpened.class));
    // Version 6 keeps the fabric manager's database (the Ladon rack's controller state carries it).
    samples.add(withMsiPaths.apply(removal(ControllerEvent.FabricDatabaseRecorded.class))
        .apply(removal(ControllerEvent.SteppedDown.class)).toSnapshot());
    VersionedCodec codec = VersionedCodec.shared();
    for (Object sample : samples) {
      String manifest = codec.manifest(sample.getClass());
      String name = sample.getClass().getSimpleName() + "-" + manifest.replace(':', '-') + ".bin";
      byte[] current = codec.write(sample);
      byte[] stored = golden(name, current);
      assertEquals(sample, codec.read(stored, manifest), name);
      if (VersionedCodec.versionOf(sample.getClass()) == 1) {
        assertArrayEquals(stored, current, name + ": the version-1 format changed");
      }
    }
    ControllerSnapshot stored = (ControllerSnapshot) codec.read(
        golden("ControllerSnapshot-1042-v1.bin", codec.write(state.toSnapshot())), "1042:v1");
    assertEquals(state, ControllerState.fromSnapshot(stored));
    // Version 2 (each client's last request), written before lending: it reads with no loans.
    ControllerState v2State = state.apply(removal(ControllerEvent.RequestApplied.class));
    ControllerSnapshot v2 = (ControllerSnapshot) codec.read(
        golden("ControllerSnapshot-1042-v2.bin", new byte[0]), "1042:v2");
    assertEquals(v2State, ControllerState.fromSnapshot(v2));
    // Version 3 keeps Device Lending's offers, loans and DMA mappings: it reads with no step-down.
    ControllerSnapshot v3 = (ControllerSnapshot) codec.read(
        golden("ControllerSnapshot-1042-v3.bin", new byte[0]), "1042:v3");
    assertEquals(applied, ControllerState.fromSnapshot(v3));
    // Version 4, written before the MSI paths: it reads with none.
    ControllerSnapshot v4 = (ControllerSnapshot) codec.read(
        golden("ControllerSnapshot-1042-v4.bin", new byte[0]), "1042:v4");
    assertEquals(steppedDown, ControllerState.fromSnapshot(v4));
    // Version 5, written before the fabric manager's database: it reads with none.
    ControllerSnapshot v5 = (ControllerSnapshot) codec.read(
        golden("ControllerSnapshot-1042-v5.bin", new byte[0]), "1042:v5");
    assertEquals(withMsiPaths.apply(removal(ControllerEvent.SteppedDown.class)), ControllerState.fromSnapshot(v5));
  }

  static ControllerEvent removal(Class<? extends ControllerEvent> type) {
    if (type == ControllerEvent.HostRemoved.class) {
      return new ControllerEvent.HostRemoved("ch2", 20_000);
    } else if (type == ControllerEvent.DeviceRemoved.class) {
      return new ControllerEvent.DeviceRemoved("ntb1", 20_000);
    } else if (type == ControllerEvent.OfferWithdrawn.class) {
      return new ControllerEvent.OfferWithdrawn("gpu0", 20_000);
    } else if (type == ControllerEvent.DeviceReturned.class) {
      return new ControllerEvent.DeviceReturned("gpu0", "ch1", 20_000);
    } else if (type == ControllerEvent.LoanWindowMoved.class) {
      return new ControllerEvent.LoanWindowMoved("gpu0", "ch1", 0x1060_0000_0000L, 64 * 1024, 32L << 30, 20_000);
    } else if (type == ControllerEvent.MsiPathOpened.class) {
      return new ControllerEvent.MsiPathOpened("gpu0", "ch1", SampleRack.MSI_WORD, 20_000);
    } else if (type == ControllerEvent.MsiPathClosed.class) {
      return new ControllerEvent.MsiPathClosed("gpu0", "ch1", 20_000);
    } else if (type == ControllerEvent.SteppedDown.class) {
      return new ControllerEvent.SteppedDown("bmh", 651_090_000L, 28, 3_500_000_000L);
    } else if (type == ControllerEvent.RequestApplied.class) {
      return new ControllerEvent.RequestApplied("ch1-driver", 3, 20_000);
    } else if (type == ControllerEvent.FabricDatabaseRecorded.class) {
      var end = new io.rackfabric.fabric.management.TopologyDatabase.End(12, 3);
      return new ControllerEvent.FabricDatabaseRecorded("mmh", new io.rackfabric.fabric.management.DatabaseDelta(true,
          List.of(new io.rackfabric.fabric.management.TopologyDatabase.Device(12,
              io.rackfabric.fabric.management.DeviceType.SWITCH, 16, 256, io.rackfabric.fabric.management.Route.local())),
          List.of(new io.rackfabric.fabric.management.TopologyDatabase.Port(12, 3,
              io.rackfabric.fabric.management.PortKind.DOWNSTREAM, 1, 4, 3, 4, 3,
              io.rackfabric.fabric.link.DataLinkState.DL_ACTIVE, io.rackfabric.fabric.link.DataLinkState.DL_PROTECTED)),
          List.of(io.rackfabric.fabric.management.TopologyDatabase.Link.of(end,
              new io.rackfabric.fabric.management.TopologyDatabase.End(9, 0))), List.of()), 21_142, 60_000);
    }
    throw new AssertionError("the sample rack has no " + type.getSimpleName());
  }
}
