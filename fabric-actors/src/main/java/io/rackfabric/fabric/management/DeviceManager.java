package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.Optional;

/**
 * A device's manager (AS-FM section 3.2: "receiving requests from the FM, accessing to the
 * capabilities in the device configuration space ... and, if necessary, generating and injecting
 * the corresponding responses"), as a plain class: it answers PI-4 reads, applies PI-4 writes
 * (counting what it ignores) and turns a change of a local port's state into a PI-5 event once the
 * fabric manager has programmed where events go. A switch chip or an endpoint actor that carries
 * management packets asks it; it keeps no clock.
 */
public final class DeviceManager {

  private final ConfigurationSpace space;
  private int events;

  public DeviceManager(ConfigurationSpace space) {
    this.space = space;
  }

  /** The completion to {@code request}, which came in through {@code ingressPort}. */
  public Pi4ReadCompletion onRead(Pi4ReadRequest request, int ingressPort) {
    return request.answer(space.read(request.aperture(), request.offset(), request.dwords(), ingressPort));
  }

  public WriteOutcome onWrite(Pi4Write write) {
    return write.applyTo(space);
  }

  /**
   * Port {@code port}'s data link layer says it is now in {@code state}: the port's record follows,
   * and when that is a change and an event route is programmed, the event to send back along it.
   */
  public Optional<Pi5Event> onPortState(int port, DataLinkState state, DataLinkState peerState) {
    DataLinkState before = space.portState(port);
    space.setPortState(port, state, peerState);
    Route route = space.eventRoute().route();
    if (before == state || route == null) {
      return Optional.empty();
    }
    events++;
    return Optional.of(new Pi5Event(route, space.eventRoute().trafficClass(), space.device().serial(), port, state));
  }

  /** PI-5 events this manager has produced. */
  public int events() {
    return events;
  }

  public ConfigurationSpace space() {
    return space;
  }

  /**
   * The write with which a fabric manager at the far end of {@code route} moves port {@code port}
   * of the device there to DL_Active ({@code active}) or back to DL_Protected: one register, the
   * port record's control register (AS-FM section 2.2, "by means of a PI-4 packet").
   */
  public static Pi4Write activationWrite(Route route, int trafficClass, int port, boolean active) {
    return new Pi4Write(route, trafficClass, 0, BaselineCapability.portRecordOffset(port) + 4L * PortRecord.CONTROL,
        new int[] {active ? 1 : 0});
  }

  /**
   * The write with which a fabric manager at the far end of {@code route} programs the device there
   * to send its PI-5 events back along it.
   */
  public static Pi4Write eventRouteWrite(Route route, int trafficClass) {
    return EventRouteCapability.programming(route, trafficClass);
  }
}
