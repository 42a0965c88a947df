package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.endpoint.MemoryEndpoint.ConfigRequest;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.Read;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.ReadAs;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.ReadResult;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.StartTraffic;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.Store;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.Write;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.WriteAs;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.CompletionStatus;
import org.slf4j.Logger;

/**
 * The writes and reads software asks a memory endpoint to issue, on their way to its requester:
 * under the kernel one stamped later than the endpoint's clock waits for its model time; a root's
 * own memory is served at once, off the link; one under another requester ID needs a 16-bit ID.
 * Configuration requests and traffic plans go to the requester as they are; the host CPU's own
 * stores ({@link Store}) to the memory. Not thread-safe: the endpoint actor's own.
 */
final class RequestIntake {

  private final String id;
  private final PortTime time;
  private final EndpointTarget target;
  private final EndpointRequester requester;
  private final Logger log;

  RequestIntake(String id, PortTime time, EndpointTarget target, EndpointRequester requester, Logger log) {
    this.id = id;
    this.time = time;
    this.target = target;
    this.requester = requester;
    this.log = log;
  }

  /** Takes what software asks the endpoint to issue, or to store in its own memory. */
  void register(PartMessages on) {
    on.on(Write.class, this::write)
        .on(Read.class, this::read)
        .on(WriteAs.class, this::writeAs)
        .on(ReadAs.class, this::readAs)
        .on(Store.class, msg -> target.store(msg.address(), msg.data()))
        .on(ConfigRequest.class, requester::config)
        .on(EndpointRequester.ConfigTimedOut.class, requester::configTimedOut)
        .on(StartTraffic.class, this::startTraffic);
  }

  void write(Write msg) {
    if (putOff(msg, msg.at())) {
      return;
    }
    if (target.root() && target.claims(msg.address(), msg.data().length)) {
      // A root's own memory (a host's CPU storing to its DRAM): it never reaches the link, as
      // RouteExplainer says, and is not reported to watchers, which follow inbound writes. A
      // device's write to its own BAR does go out (a multicast window may overlap it).
      target.storeOwn(msg.address(), msg.data());
      return;
    }
    requester.write(msg.address(), msg.data(), msg.at());
  }

  void read(Read msg) {
    if (putOff(msg, msg.at())) {
      return;
    }
    if (target.root() && target.claims(msg.address(), msg.length())) {
      msg.replyTo().tell(new ReadResult(msg.address(), CompletionStatus.SUCCESSFUL,
          target.read(msg.address(), msg.length()), 0, msg.at())); // own memory, as for Write
      return;
    }
    requester.read(msg, target.bdf(), msg.address(), msg.length(), msg.at(), msg.replyTo());
  }

  void writeAs(WriteAs msg) {
    if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      log.warn("Endpoint [{}] WriteAs requester=0x{} is not a 16-bit ID; dropped", id,
          Integer.toHexString(msg.requester()));
      return;
    }
    requester.writeAs(msg.requester(), msg.address(), msg.data());
  }

  void readAs(ReadAs msg) {
    if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      log.warn("Endpoint [{}] ReadAs requester=0x{} is not a 16-bit ID; refused", id,
          Integer.toHexString(msg.requester()));
      msg.replyTo().tell(new ReadResult(msg.address(), CompletionStatus.COMPLETER_ABORT, null, 0));
      return;
    }
    requester.read(msg, msg.requester(), msg.address(), msg.length(), -1, msg.replyTo());
  }

  private void startTraffic(StartTraffic msg) {
    if (!requester.startTraffic(msg)) {
      log.warn("Endpoint [{}] is already running traffic; request refused", id);
    }
  }

  /**
   * Under the kernel a write or read stamped later than the endpoint's clock (a guest's next
   * packet, a host's delayed answer) is one of its model-time events at that time, so that it
   * takes the link in model-time order with everything else; true when it was put off so.
   */
  private boolean putOff(PortMessage msg, long at) {
    if (!time.joined() || at <= time.now()) {
      return false;
    }
    time.schedule(at, msg);
    return true;
  }
}
