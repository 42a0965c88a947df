package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.time.ModelClock;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.PortEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The fault-tolerance daemon (FTD) on the host owning a card (FTGM section 4.3). The driver wakes it
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
   * What the daemon drives on the card, through its driver: the Myrinet card of the testbed
   * ({@link #card(McpFirmware, ModelClock, Set, Set)}) or the rack's SR-IOV NIC (through the
   * NIC's actor). The magic-word check answers through a callback, so a card in another actor can
   * answer by message.
   */
  public interface Card {
    String name();

    void reset(long at);

    void reload(long at);

    /** Restores the card's tables from the host's copy at {@code at}; returns what it restored, for the record. */
    String restoreTables(long at);

    /** Sets the magic word at {@code writtenAt}, reads it at {@code readAt}: {@code cleared} gets the answer. */
    void checkMagicWord(long writtenAt, long readAt, Consumer<Boolean> cleared);
  }

  /** An open port (a process's GM port, a VF's owner): what FAULT_DETECTED is posted to. */
  public interface Port {
    int port();

    void deliver(PortEvent event, long at);
  }

  /** The Myrinet card of the testbed as a {@link Card}: its page hash and routing tables from the host's copy. */
  public static Card card(McpFirmware card, ModelClock clock, Set<Integer> pagePorts, Set<String> routes) {
    Set<Integer> pages = Set.copyOf(pagePorts);
    Set<String> routed = Set.copyOf(routes);
    return new Card() {
      @Override
      public String name() {
        return card.node();
      }

      @Override
      public void reset(long at) {
        card.reset(at);
      }

      @Override
      public void reload(long at) {
        card.reload(at);
      }

      @Override
      public String restoreTables(long at) {
        card.restoreTables(pages, routed, at);
        return pages.size() + " page ports, " + routed.size() + " routes";
      }

      @Override
      public void checkMagicWord(long writtenAt, long readAt, Consumer<Boolean> cleared) {
        card.writeMagicWord(writtenAt);
        clock.schedule(Math.max(0, readAt - clock.now()), () -> cleared.accept(card.magicWordCleared()));
      }
    };
  }

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

  private final Card card;
  private final FtgmSettings settings;
  private final ModelClock clock;
  private final Supplier<? extends List<? extends Port>> openPorts;
  private final List<Recovery> recoveries = new ArrayList<>();
  private final Consumer<RecoveryEvent> events;
  private boolean busy;

  /**
   * @param openPorts the ports open on the card, as the driver knows them
   * @param pagePorts and {@code routes}: the host's copy of the page hash and routing tables
   * @param events where each step of a recovery is recorded as it happens
   */
  public FaultToleranceDaemon(McpFirmware card, FtgmSettings settings, ModelClock clock,
      Supplier<? extends List<? extends Port>> openPorts, Set<Integer> pagePorts, Set<String> routes,
      Consumer<RecoveryEvent> events) {
    this(card(card, clock, pagePorts, routes), settings, clock, openPorts, events);
  }

  /**
   * @param clock the steps' model time: each runs when the clock reaches it (an owner that carries
   *     the times in its messages may run them at once)
   */
  public FaultToleranceDaemon(Card card, FtgmSettings settings, ModelClock clock,
      Supplier<? extends List<? extends Port>> openPorts, Consumer<RecoveryEvent> events) {
    this.card = card;
    this.settings = settings;
    this.clock = clock;
    this.openPorts = openPorts;
    this.events = events;
  }

  private void record(long at, String step, int port, String detail) {
    events.accept(new RecoveryEvent(at, card.name(), step, port, detail));
  }

  /** Loads the card when the driver starts: firmware and tables, no recovery. */
  public void boot(long at) {
    card.reset(at);
    card.reload(at);
    card.restoreTables(at);
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
      long checked = woken + settings.magicWordWaitNs();
      card.checkMagicWord(woken, checked, cleared -> at(checked, () -> {
        if (cleared) {
          record(checked, RecoveryEvent.FALSE_ALARM, -1, "magic word cleared");
          recoveries.add(new Recovery(cause, at, woken, checked, true, List.of()));
          busy = false;
          return;
        }
        record(checked, RecoveryEvent.HANG_CONFIRMED, -1, "magic word still set");
        recover(cause, at, checked);
      }));
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
        String tables = card.restoreTables(restored);
        record(restored, RecoveryEvent.TABLES_RESTORED, -1, tables);
        List<? extends Port> ports = openPorts.get();
        long t = restored;
        List<Integer> posted = new ArrayList<>();
        for (Port p : ports) {
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
