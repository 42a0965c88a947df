package io.rackfabric.host.ftgm;

import io.rackfabric.host.messaging.ModelClock;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.PortEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fault-tolerance daemon (FTD) on the host owning a card (seeds/002 4.3). The driver wakes it
 * on the card's interrupt; it confirms a hang with the magic word, resets the card, reloads the
 * firmware, restores the page hash and routing tables, and posts FAULT_DETECTED to every open
 * port. Under GM the same driver path reloads the card (the baseline: reload only); what differs
 * is what the ports' handlers can restore.
 *
 * <p>Model time: each step is an event at the model time the previous one ended; the reload's
 * half second is the clock moving on to the next event, not a wait.
 */
public final class FaultToleranceDaemon {

  /**
   * One wake-up.
   *
   * @param interruptAt the card raised its interrupt
   * @param wokenAt the daemon started (the interrupt's latency later)
   * @param doneAt FAULT_DETECTED was in every open port's queue (or, on a false alarm, the check ended)
   * @param falseAlarm the magic word was cleared: the card was alive, nothing was done
   * @param ports the open ports it posted to
   */
  public record Recovery(McpFirmware.Interrupt cause, long interruptAt, long wokenAt, long doneAt,
      boolean falseAlarm, List<Integer> ports) {}

  private final McpFirmware card;
  private final FtgmSettings settings;
  private final ModelClock clock;
  private final Supplier<List<PortLibrary>> openPorts;
  private final Set<Integer> pagePorts;
  private final Set<String> routes;
  private final List<Recovery> recoveries = new ArrayList<>();
  private final Consumer<RecoveryEvent> events;
  private boolean busy;

  /**
   * @param openPorts the ports open on the card, as the driver knows them
   * @param pagePorts and {@code routes}: the host's copy of the page hash and routing tables
   * @param events where each step of a recovery is recorded as it happens
   */
  public FaultToleranceDaemon(McpFirmware card, FtgmSettings settings, ModelClock clock,
      Supplier<List<PortLibrary>> openPorts, Set<Integer> pagePorts, Set<String> routes,
      Consumer<RecoveryEvent> events) {
    this.card = card;
    this.settings = settings;
    this.clock = clock;
    this.openPorts = openPorts;
    this.pagePorts = Set.copyOf(pagePorts);
    this.routes = Set.copyOf(routes);
    this.events = events;
  }

  private void record(long at, String step, int port, String detail) {
    events.accept(new RecoveryEvent(at, card.node(), step, port, detail));
  }

  /** Loads the card when the driver starts: firmware and tables, no recovery. */
  public void boot(long at) {
    card.reset(at);
    card.reload(at);
    card.restoreTables(pagePorts, routes, at);
  }

  /** The card's interrupt, raised at {@code at}. */
  public void interrupted(McpFirmware.Interrupt cause, long at) {
    if (busy) {
      return; // already recovering this card
    }
    busy = true;
    long woken = at + settings.interruptLatencyNs();
    at(woken, () -> {
      record(woken, RecoveryEvent.DAEMON_WOKEN, -1, cause.name().toLowerCase(Locale.ROOT));
      if (cause == McpFirmware.Interrupt.RESTARTED) {
        recover(cause, at, woken); // the firmware said so itself
        return;
      }
      card.writeMagicWord(woken);
      long checked = woken + settings.magicWordWaitNs();
      at(checked, () -> {
        if (card.magicWordCleared()) {
          record(checked, RecoveryEvent.FALSE_ALARM, -1, "magic word cleared");
          recoveries.add(new Recovery(cause, at, woken, checked, true, List.of()));
          busy = false;
          return;
        }
        record(checked, RecoveryEvent.HANG_CONFIRMED, -1, "magic word still set");
        recover(cause, at, checked);
      });
    });
  }

  private void recover(McpFirmware.Interrupt cause, long interruptAt, long from) {
    long woken = interruptAt + settings.interruptLatencyNs();
    card.reset(from);
    record(from, RecoveryEvent.CARD_RESET, -1, "");
    long reloaded = from + settings.cardResetNs() + settings.mcpReloadNs();
    at(reloaded, () -> {
      card.reload(reloaded);
      record(reloaded, RecoveryEvent.FIRMWARE_RELOADED, -1, "");
      long restored = reloaded + settings.pageHashRestoreNs() + settings.routingRestoreNs();
      at(restored, () -> {
        card.restoreTables(pagePorts, routes, restored);
        record(restored, RecoveryEvent.TABLES_RESTORED, -1, pagePorts.size() + " page ports, " + routes.size()
            + " routes");
        List<PortLibrary> ports = openPorts.get();
        long t = restored;
        List<Integer> posted = new ArrayList<>();
        for (PortLibrary p : ports) {
          t += settings.faultEventPostNs();
          posted.add(p.port());
          record(t, RecoveryEvent.FAULT_DETECTED_POSTED, p.port(), "");
        }
        long done = t;
        at(done, () -> {
          recoveries.add(new Recovery(cause, interruptAt, woken, done, false, posted));
          busy = false; // rewinds and stands guard for the next fault
          // the driver lets the processes at the card again only now: their handlers start here
          ports.forEach(p -> p.deliver(new PortEvent.FaultDetected(), done));
        });
      });
    });
  }

  private void at(long time, Runnable task) {
    clock.schedule(Math.max(0, time - clock.now()), task);
  }

  public List<Recovery> recoveries() {
    return List.copyOf(recoveries);
  }

  public boolean busy() {
    return busy;
  }
}
