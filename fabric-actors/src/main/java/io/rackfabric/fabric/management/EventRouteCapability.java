package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a device's PI-5 events go (AS-FM section 4: "the device manager in a detecting device can
 * report the FM about a change in the state of a local port"). The paper does not say how a device
 * knows the fabric manager's route; in AS the fabric manager programs it, and so it does here, with
 * one PI-4 write. The layout is ours:
 *
 * <pre>
 * +00h  [31:20] next capability (0: none)  [19:16] version  [15:0] ID (F002h, our choice)
 * +04h  [15:8] traffic class  [7:0] turns (0: no route, events off)
 * +08h  the route from the fabric manager to this device, four 8-bit turns a register, first turn
 *       in bits [7:0]; up to seven registers (28 turns)
 * </pre>
 *
 * The route is written whole: a write must start at +04h and hold the count and every turn it
 * names; any other write is read-only and ignored. An event travels the route backward, as a
 * completion does.
 */
final class EventRouteCapability extends FixedRegion {

  static final int ID = 0xF002;
  static final long OFFSET = SpanningTreeCapability.OFFSET + 0x100;
  /** The header, the count and seven registers of turns: a route fits one PI-4 write of eight. */
  static final int DWORDS = 2 + ConfigurationSpace.MAX_DWORDS - 1;
  static final int MAX_TURNS = 4 * (DWORDS - 2);
  private static final int ROUTE = 1;

  private final int[] registers = new int[DWORDS];

  EventRouteCapability() {
    super(OFFSET, DWORDS);
    registers[0] = ID;
  }

  @Override
  public int read(int index, int ingressPort) {
    return registers[index];
  }

  @Override
  public boolean write(int index, int[] data) {
    if (index != ROUTE) {
      return false;
    }
    int turns = data[0] & 0xFF;
    int trafficClass = (data[0] >>> 8) & 0xFF;
    if (turns > MAX_TURNS || trafficClass > 7 || data.length != 1 + (turns + 3) / 4 || (data[0] >>> 16) != 0) {
      return false;
    }
    java.util.Arrays.fill(registers, ROUTE, DWORDS, 0);
    System.arraycopy(data, 0, registers, ROUTE, data.length);
    return true;
  }

  /** The route events go back along, or null when none is programmed. */
  Route route() {
    int turns = registers[ROUTE] & 0xFF;
    if (turns == 0) {
      return null;
    }
    List<Integer> list = new ArrayList<>();
    for (int i = 0; i < turns; i++) {
      list.add((registers[ROUTE + 1 + i / 4] >>> (8 * (i % 4))) & 0xFF);
    }
    return new Route(list);
  }

  int trafficClass() {
    return (registers[ROUTE] >>> 8) & 0xFF;
  }

  /**
   * The PI-4 write with which the fabric manager, at the far end of {@code route}, asks the device
   * there to send its events back along it.
   *
   * @throws IllegalArgumentException naming the length when the route has no turn or more than 28
   */
  static Pi4Write programming(Route route, int trafficClass) {
    int turns = route.hops();
    if (turns < 1 || turns > MAX_TURNS) {
      throw new IllegalArgumentException("route " + route + ": turns=" + turns + " not in [1," + MAX_TURNS + "]");
    }
    int[] data = new int[1 + (turns + 3) / 4];
    data[0] = (trafficClass << 8) | turns;
    for (int i = 0; i < turns; i++) {
      data[1 + i / 4] |= route.turns().get(i) << (8 * (i % 4));
    }
    return new Pi4Write(route, trafficClass, 0, OFFSET + 4, data);
  }
}
