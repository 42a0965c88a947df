package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PathTableCapabilityTest {

  private static final Route TO_EP = new Route(List.of(0, 5));
  private static final long DEST = 0xACB91569C8333C21L;

  private static ConfigurationSpace endpoint() {
    return ConfigurationSpace.of(TestDevices.endpoint("ep", 9, -1, DataLinkState.DL_ACTIVE));
  }

  private static WriteOutcome write(ConfigurationSpace space, Pi4Write w) {
    return w.applyTo(space);
  }

  @Test
  void shouldHoldTheEntriesInUseWhenEntriesAndTheHeaderAreWritten() {
    ConfigurationSpace space = endpoint();
    Route path = new Route(List.of(0, 3, 1, 2, 7, 255));
    assertEquals(WriteOutcome.APPLIED, write(space, PathTableCapability.entryWrite(TO_EP, 0, 0, DEST, path)));
    assertEquals(WriteOutcome.APPLIED, write(space, PathTableCapability.entryWrite(TO_EP, 0, 1, 42, new Route(List.of(0)))));
    assertEquals(0, space.pathTable().table(9).entries().size(), "nothing in use before the header");
    assertEquals(WriteOutcome.APPLIED, write(space, PathTableCapability.headerWrite(TO_EP, 0, 2, 1)));
    PathTable t = space.pathTable().table(9);
    assertEquals(new PathTable(9, List.of(new PathTable.Entry(DEST, path), new PathTable.Entry(42, new Route(List.of(0))))), t);
    assertEquals(1, space.pathTable().generation());
    // the registers as documented: serial low, high, valid and turns, four turns a register
    assertEquals(0xC8333C21, space.read(1, 0x20, 1, -1).data()[0]);
    assertEquals(0xACB91569, space.read(1, 0x24, 1, -1).data()[0]);
    assertEquals(0x80000006, space.read(1, 0x28, 1, -1).data()[0]);
    assertEquals(0x02010300, space.read(1, 0x2C, 1, -1).data()[0]);
    assertEquals(0x0000FF07, space.read(1, 0x30, 1, -1).data()[0]);
    assertEquals(0x1F003, space.read(1, 0, 1, -1).data()[0]);
  }

  @Test
  void shouldDropAnEntryWhenItsSlotIsClearedOrPastTheSlotsInUse() {
    ConfigurationSpace space = endpoint();
    write(space, PathTableCapability.entryWrite(TO_EP, 0, 0, 1, new Route(List.of(0, 1))));
    write(space, PathTableCapability.entryWrite(TO_EP, 0, 1, 2, new Route(List.of(0, 2))));
    write(space, PathTableCapability.entryWrite(TO_EP, 0, 2, 3, new Route(List.of(0, 3))));
    write(space, PathTableCapability.headerWrite(TO_EP, 0, 3, 1));
    write(space, PathTableCapability.clearWrite(TO_EP, 0, 1));
    assertEquals(List.of(1L, 3L), space.pathTable().table(9).entries().stream().map(PathTable.Entry::destination).toList());
    write(space, PathTableCapability.headerWrite(TO_EP, 0, 1, 2));
    assertEquals(List.of(1L), space.pathTable().table(9).entries().stream().map(PathTable.Entry::destination).toList());
  }

  @Test
  void shouldIgnoreAndCountAMalformedWriteWhenAnEntryIsNotWrittenWhole() {
    ConfigurationSpace space = endpoint();
    write(space, PathTableCapability.entryWrite(TO_EP, 0, 0, 1, new Route(List.of(0, 1))));
    write(space, PathTableCapability.headerWrite(TO_EP, 0, 1, 1));
    PathTable before = space.pathTable().table(9);
    List<Pi4Write> bad = List.of(
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0x80000002}), // two turns named, none given
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0x80000015, 0, 0, 0, 0, 0}), // 21 turns
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0x80000000, 0}), // valid with no turn
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0x80010001, 5}), // bits outside the fields
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0x80000201, 5}), // rank 2: a table holds two
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0x80000001, 0x0105}), // a turn past the count
        new Pi4Write(TO_EP, 0, 1, 0x24, new int[] {0, 0x80000001, 3}), // not at the slot's start
        new Pi4Write(TO_EP, 0, 1, 0x20, new int[] {1, 0, 0}), // cleared but naming a destination
        new Pi4Write(TO_EP, 0, 1, 0x4, new int[] {3}), // the header without its generation
        new Pi4Write(TO_EP, 0, 1, 0x4, new int[] {PathTableCapability.MAX_SLOTS + 1, 2})); // too many slots
    for (Pi4Write w : bad) {
      assertEquals(WriteOutcome.MALFORMED, write(space, w), w.offset() + " " + java.util.Arrays.toString(w.data()));
    }
    assertEquals(bad.size(), space.malformedWrites());
    assertEquals(before, space.pathTable().table(9), "nothing changed");
    assertEquals(1, space.pathTable().generation());
    assertEquals(WriteOutcome.READ_ONLY, write(space, new Pi4Write(TO_EP, 0, 1, 0, new int[] {0})), "the ID");
    assertEquals(1, space.readOnlyWrites());
  }

  @Test
  void shouldHoldTheChosenRouteAndAnAlternateWhenADestinationHasTwoRanks() {
    ConfigurationSpace space = endpoint();
    PathTable.Entry alternate = new PathTable.Entry(DEST, new Route(List.of(0, 2, 2, 0)), 1);
    write(space, PathTableCapability.entryWrite(TO_EP, 0, 0, DEST, new Route(List.of(0, 1, 2, 0))));
    assertEquals(WriteOutcome.APPLIED, write(space, PathTableCapability.entryWrite(TO_EP, 0, 1, alternate)));
    write(space, PathTableCapability.headerWrite(TO_EP, 0, 2, 1));
    assertEquals(0x80000104, space.read(1, 0x48, 1, -1).data()[0], "valid, rank 1, four turns");
    PathTable t = space.pathTable().table(9);
    assertEquals(List.of(new PathTable.Entry(DEST, new Route(List.of(0, 1, 2, 0))), alternate), t.entries());
    assertEquals(java.util.Optional.of(new Route(List.of(0, 1, 2, 0))), t.route(DEST), "the chosen route");
    assertEquals(List.of(t.entries().get(0)), t.chosen());
  }

  @Test
  void shouldHaveNoPathTableWhenTheDeviceIsASwitch() {
    ConfigurationSpace sw = ConfigurationSpace.of(TestDevices.switchOf("sw", 12, 8, Set.of(1), DataLinkState.DL_ACTIVE));
    assertNull(sw.pathTable());
    assertEquals(WriteOutcome.NO_SUCH_FIELD, write(sw, PathTableCapability.headerWrite(TO_EP, 0, 1, 1)));
    assertEquals(1, sw.writesToNothing());
  }

  @Test
  void shouldRefuseToEncodeAnEntryWhenThePathOrTheSlotIsOutOfRange() {
    Route tooLong = new Route(java.util.Collections.nCopies(PathTableCapability.MAX_TURNS + 1, 1));
    assertThrows(IllegalArgumentException.class, () -> PathTableCapability.entryWrite(TO_EP, 0, 0, 1, tooLong));
    assertThrows(IllegalArgumentException.class,
        () -> PathTableCapability.entryWrite(TO_EP, 0, PathTableCapability.MAX_SLOTS, 1, new Route(List.of(0))));
  }
}
