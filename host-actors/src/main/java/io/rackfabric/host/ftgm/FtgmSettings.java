package io.rackfabric.host.ftgm;

import com.typesafe.config.Config;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.McpTiming;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Everything under {@code rackfabric.host.ftgm}, read once and validated. Durations are model
 * nanoseconds. The recovery steps' defaults add up to FTGM Table 3; the host costs are its
 * Table 2.
 *
 * @param mode the protocol a NIC runs unless told otherwise
 * @param timing the firmware's own times and timers
 * @param interruptLatencyNs watchdog interrupt to the daemon running
 * @param magicWordWaitNs how long the daemon waits for the firmware to clear its magic word
 * @param cardResetNs resetting the card
 * @param mcpReloadNs clearing card memory and loading the firmware
 * @param pageHashRestoreNs restoring the page hash table
 * @param routingRestoreNs restoring the mapping and routing tables
 * @param faultEventPostNs posting FAULT_DETECTED into one open port's queue
 * @param portHandlerNs one port's FAULT_DETECTED handler (checks, clearing its queue, reopening)
 * @param tokenRestoreNs the handler's time per token it restores
 * @param hostSendNs host CPU per gm_send (GM)
 * @param hostReceiveNs host CPU per received message (GM)
 * @param sendCopyNs FTGM's extra host CPU per send (the token copy)
 * @param receiveCopyNs FTGM's extra host CPU per receive (token copy and ACK number)
 * @param hostDmaNs one message's DMA between host memory and the card
 * @param messageBytes message size of the testbed's traffic
 * @param sendTokens send tokens per port
 * @param receiveTokens receive buffers per port
 * @param ports open ports per interface in a campaign's testbed
 * @param messages messages each port sends each way in a campaign's testbed
 * @param messageIntervalNs model time between two messages of one port
 * @param settleLimitNs how long a testbed may run before what is missing counts as lost
 * @param faults faults a campaign injects
 * @param seed a campaign's seed
 * @param rates probability of each category per injected fault (the rest: no impact)
 */
public record FtgmSettings(
    McpMode mode,
    McpTiming timing,
    long interruptLatencyNs,
    long magicWordWaitNs,
    long cardResetNs,
    long mcpReloadNs,
    long pageHashRestoreNs,
    long routingRestoreNs,
    long faultEventPostNs,
    long portHandlerNs,
    long tokenRestoreNs,
    long hostSendNs,
    long hostReceiveNs,
    long sendCopyNs,
    long receiveCopyNs,
    long hostDmaNs,
    int messageBytes,
    int sendTokens,
    int receiveTokens,
    int ports,
    int messages,
    long messageIntervalNs,
    long settleLimitNs,
    int faults,
    long seed,
    List<FaultSpec.Rate> rates) {

  public FtgmSettings {
    List<String> errors = new ArrayList<>();
    if (mode == null) {
      errors.add("mode is missing");
    }
    nonNegative(errors, "interrupt-latency", interruptLatencyNs);
    nonNegative(errors, "card-reset", cardResetNs);
    nonNegative(errors, "mcp-reload", mcpReloadNs);
    nonNegative(errors, "page-hash-restore", pageHashRestoreNs);
    nonNegative(errors, "routing-restore", routingRestoreNs);
    nonNegative(errors, "fault-event-post", faultEventPostNs);
    nonNegative(errors, "port-handler", portHandlerNs);
    nonNegative(errors, "token-restore", tokenRestoreNs);
    nonNegative(errors, "host.send", hostSendNs);
    nonNegative(errors, "host.receive", hostReceiveNs);
    nonNegative(errors, "host.send-copy", sendCopyNs);
    nonNegative(errors, "host.receive-copy", receiveCopyNs);
    nonNegative(errors, "host-dma", hostDmaNs);
    if (timing != null && magicWordWaitNs <= timing.lTimerIntervalNs() + timing.lTimerNs()) {
      errors.add("magic-word-wait=" + magicWordWaitNs + "ns must exceed l-timer-interval + l-timer="
          + (timing.lTimerIntervalNs() + timing.lTimerNs()) + "ns (a running loop must get to clear it)");
    }
    range(errors, "message-bytes", messageBytes, 1, 4096);
    range(errors, "send-tokens", sendTokens, 1, 1024);
    range(errors, "receive-tokens", receiveTokens, 1, 1024);
    range(errors, "campaign.ports", ports, 1, 8);
    range(errors, "campaign.messages", messages, 1, 100_000);
    if (messageIntervalNs < 1) {
      errors.add("campaign.message-interval=" + messageIntervalNs + "ns must be positive");
    }
    if (settleLimitNs < 1) {
      errors.add("campaign.settle-limit=" + settleLimitNs + "ns must be positive");
    }
    range(errors, "campaign.faults", faults, 1, 1_000_000);
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.ftgm: " + String.join("; ", errors));
    }
    rates = List.copyOf(rates);
  }

  public static FtgmSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.ftgm");
    Config m = c.getConfig("mcp");
    Config h = c.getConfig("host");
    Config k = c.getConfig("campaign");
    McpTiming timing;
    try {
      timing = new McpTiming(ns(m, "packet"), ns(m, "ftgm-extra"), ns(m, "l-timer"), ns(m, "l-timer-interval"),
          ns(m, "watchdog-interval"), ns(m, "resend-timeout"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("rackfabric.host.ftgm.mcp: " + e.getMessage(), e);
    }
    List<FaultSpec.Rate> rates = new ArrayList<>();
    Config r = k.getConfig("rates");
    for (String key : r.root().keySet()) {
      rates.add(new FaultSpec.Rate(FaultCategory.parse(key), r.getDouble(key)));
    }
    return new FtgmSettings(mode(c.getString("mode")), timing, ns(c, "interrupt-latency"), ns(c, "magic-word-wait"),
        ns(c, "card-reset"), ns(c, "mcp-reload"), ns(c, "page-hash-restore"), ns(c, "routing-restore"),
        ns(c, "fault-event-post"), ns(c, "port-handler"), ns(c, "token-restore"), ns(h, "send"), ns(h, "receive"),
        ns(h, "send-copy"), ns(h, "receive-copy"), ns(c, "host-dma"), c.getInt("message-bytes"),
        c.getInt("send-tokens"), c.getInt("receive-tokens"), k.getInt("ports"), k.getInt("messages"),
        ns(k, "message-interval"), ns(k, "settle-limit"), k.getInt("faults"), k.getLong("seed"),
        FaultSpec.validRates(rates));
  }

  /** {@code gm} or {@code ftgm}. */
  public static McpMode mode(String text) {
    try {
      return McpMode.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("mode=" + text + " not in {gm,ftgm}", e);
    }
  }

  private static long ns(Config c, String key) {
    return c.getDuration(key).toNanos();
  }

  private static void nonNegative(List<String> errors, String key, long ns) {
    if (ns < 0) {
      errors.add(key + "=" + ns + "ns is negative");
    }
  }

  private static void range(List<String> errors, String key, long v, long min, long max) {
    if (v < min || v > max) {
      errors.add(key + "=" + v + " not in [" + min + "," + max + "]");
    }
  }

  /** The daemon's part of a recovery, without the per-port posting: reset, reload, tables. */
  public long cardRestoreNs() {
    return cardResetNs + mcpReloadNs + pageHashRestoreNs + routingRestoreNs;
  }

  public FtgmSettings withMode(McpMode m) {
    return new FtgmSettings(m, timing, interruptLatencyNs, magicWordWaitNs, cardResetNs, mcpReloadNs,
        pageHashRestoreNs, routingRestoreNs, faultEventPostNs, portHandlerNs, tokenRestoreNs, hostSendNs,
        hostReceiveNs, sendCopyNs, receiveCopyNs, hostDmaNs, messageBytes, sendTokens, receiveTokens, ports,
        messages, messageIntervalNs, settleLimitNs, faults, seed, rates);
  }

  /** The same with a campaign testbed of {@code p} ports, {@code n} messages each way every {@code intervalNs}. */
  public FtgmSettings withTraffic(int p, int n, long intervalNs) {
    return new FtgmSettings(mode, timing, interruptLatencyNs, magicWordWaitNs, cardResetNs, mcpReloadNs,
        pageHashRestoreNs, routingRestoreNs, faultEventPostNs, portHandlerNs, tokenRestoreNs, hostSendNs,
        hostReceiveNs, sendCopyNs, receiveCopyNs, hostDmaNs, messageBytes, sendTokens, receiveTokens, p, n,
        intervalNs, settleLimitNs, faults, seed, rates);
  }
}
