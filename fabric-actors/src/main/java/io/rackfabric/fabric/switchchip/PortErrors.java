package io.rackfabric.fabric.switchchip;

import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.stats.LinkRetryStats;
import io.rackfabric.fabric.stats.WireUse;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;

/**
 * What one switch port could not deliver, and PCIe's answer to it: an Unsupported Request
 * completion for a request nothing claims, a counted drop for anything else; the AER messages it
 * sent; what it lost with its link. Its counters are the port's share of {@link PortStats}.
 */
final class PortErrors {

  private long unsupported;
  private long droppedPosted;
  private long silentDrops;
  private long lostOnLinkDown;
  private long aerSent;

  /**
   * A TLP that cannot be delivered, at model {@code at}: the Unsupported Request completion to
   * send back from {@code completer} for a non-posted request, or null for anything else, which is
   * dropped.
   */
  Completion refuse(Tlp tlp, int completer, long at) {
    if (tlp.tlpClass() == TlpClass.NON_POSTED) {
      unsupported++;
      return Completion.error(completer, tlp, CompletionStatus.UNSUPPORTED_REQUEST, at);
    }
    droppedPosted++;
    return null;
  }

  /** A TLP the routing table sends nowhere and PCIe answers with nothing. */
  void droppedSilently() {
    silentDrops++;
  }

  /** TLPs lost because the link was or went down. */
  void lost(int tlps) {
    lostOnLinkDown += tlps;
  }

  /** The fatal AER message of a link going down for {@code cause} at model {@code at}. */
  ErrorMessage linkDown(int reporter, ErrorMessage.Cause cause, long at) {
    aerSent++;
    return new ErrorMessage(reporter, ErrorMessage.Severity.FATAL, cause, at);
  }

  /** The port's statistics: these counters with its link's. */
  PortStats stats(String name, LinkEnd link, long ntbRefused) {
    var c = link.counters();
    return new PortStats(name, link.state(), c.tlpsReceived, c.tlpsSent, c.dllpsSent,
        c.dllpsReceived, unsupported, droppedPosted, silentDrops, lostOnLinkDown, c.droppedLinkDown,
        c.receiverOverflows, aerSent, c.linkUps, c.linkDowns, link.modelNow(), ntbRefused,
        LinkRetryStats.of(c), WireUse.of(link.meter(), link.params()),
        io.rackfabric.fabric.stats.LinkActivation.of(c));
  }
}
