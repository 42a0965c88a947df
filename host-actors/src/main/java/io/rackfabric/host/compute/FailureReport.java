package io.rackfabric.host.compute;

import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.Plane;
import java.util.Map;

/**
 * A compute host's AER driver's failure report ({@link ComputeHost}), without the actor: which AER
 * is a data-plane failure (a fatal error from a root port), the plane that failed, and the report
 * word and its mailbox slot behind the other plane, each copy with the next sequence number.
 * Not thread-safe: one owner.
 */
final class FailureReport {

  /** What an AER means for the report. */
  enum Aer {
    /** Not a fatal error from a root port: not a data-plane failure. */
    NOT_A_ROOT_PORT,
    /** The failed plane's link failed again (a flapping cable): already reported. */
    AGAIN,
    /** The other plane failed too: no path is left to report through. */
    NO_PATH_LEFT,
    /** The plane failed: to be reported through the other. */
    FAILED
  }

  /** A copy of the report: {@code word} written at {@code address}. */
  record Copy(long address, ControlWord word) {}

  private final int index;
  private final LadonAddresses addresses;
  private final Map<String, Plane> rootPorts;
  private Plane failed;
  private int seq;

  /**
   * @param index this CH's number, 1..N
   * @param rootPorts this CH's root ports by their requester ID ("bb:dd.f") and the plane each leads to
   */
  FailureReport(int index, LadonAddresses addresses, Map<String, Plane> rootPorts) {
    this.index = index;
    this.addresses = addresses;
    this.rootPorts = Map.copyOf(rootPorts);
  }

  /** The plane the root port {@code source} leads to, or null when it is none of this host's. */
  Plane plane(String source) {
    return rootPorts.get(source);
  }

  /** Classifies an AER of {@code severity} from {@code source}; a {@link Aer#FAILED} plane is the failed one. */
  Aer aer(String source, String severity) {
    Plane plane = rootPorts.get(source);
    if (plane == null || !"FATAL".equals(severity)) {
      return Aer.NOT_A_ROOT_PORT;
    }
    if (plane == failed) {
      return Aer.AGAIN;
    }
    if (failed != null) {
      return Aer.NO_PATH_LEFT;
    }
    failed = plane;
    return Aer.FAILED;
  }

  /** The plane whose link failed, or null. */
  Plane failed() {
    return failed;
  }

  /** The next copy of the report of the failed plane, through the other plane. */
  Copy next() {
    return new Copy(addresses.reportSlot(index, failed.other()),
        new ControlWord(ControlWord.Kind.FAILURE_REPORT, index, failed, ++seq));
  }
}
