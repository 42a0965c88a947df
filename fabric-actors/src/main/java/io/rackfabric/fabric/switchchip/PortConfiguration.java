package io.rackfabric.fabric.switchchip;

import io.rackfabric.fabric.config.PortRegisters;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.ntb.NtbTranslation;
import io.rackfabric.fabric.ntb.RequesterIdEntry;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.routing.RoutingView;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * What one switch port is, as of the chip's routing table: its configuration, the registers
 * configuration requests read and write (ahead of the table until it catches up), its NTB
 * translation and its own BDF. Configuration writes and requester-ID programming go to the chip,
 * the one writer of the table; a configuration completion is held until the table holds this
 * port's writes, since a root that saw the completion may route by the new registers at once.
 */
final class PortConfiguration {

  private final String switchId;
  private final int number;
  private final String name;
  /** Where configuration changes go: the chip publishes them in the next table. */
  private final Consumer<SwitchChip.Command> chip;
  private final Logger log;
  private RoutingView view;
  private PortConfig config;
  private PortRegisters registers;
  /** Configuration completions held until the table holds this port's writes. */
  private final List<Runnable> afterTable = new ArrayList<>();
  private NtbTranslation ntb;
  /** The internal bus {@link #ntb} was built for: its link-side proxies may live there. */
  private int ntbInternalBus;

  PortConfiguration(String switchId, int number, RoutingTable table, Consumer<SwitchChip.Command> chip,
      Logger log) {
    this.switchId = switchId;
    this.number = number;
    this.chip = chip;
    this.log = log;
    PortConfig mine = table.port(number);
    if (mine == null) {
      throw new IllegalArgumentException("routing table has no port " + number);
    }
    this.name = switchId + "." + mine.name();
    adopt(table);
  }

  /** The port's name in the rack: the switch's id and the port's. */
  String name() {
    return name;
  }

  PortRole role() {
    return config.role();
  }

  RoutingView view() {
    return view;
  }

  /** The name of sibling {@code port} in the rack. */
  String siblingName(int port) {
    return switchId + "." + view.port(port).name();
  }

  /** This NTB port's translation (null for a bridge). */
  NtbTranslation ntb() {
    return ntb;
  }

  /** TLPs this NTB port refused to translate, both ways (0 for a bridge). */
  long ntbRefused() {
    return ntb == null ? 0 : ntb.refused(NtbDirection.TO_VIRTUAL) + ntb.refused(NtbDirection.TO_LINK);
  }

  /** The chip published a new table: adopt it, and send the completions it was awaited for. */
  void tableChanged(RoutingTable table) {
    adopt(table);
    if (!registers.awaitingTable() && !afterTable.isEmpty()) {
      List<Runnable> held = List.copyOf(afterTable);
      afterTable.clear();
      held.forEach(Runnable::run);
    }
  }

  private void adopt(RoutingTable newTable) {
    PortConfig mine = newTable.port(number);
    if (mine == null) {
      throw new IllegalArgumentException("routing table has no port " + number);
    }
    if (registers == null) {
      registers = new PortRegisters(mine);
    } else {
      mine = registers.adopt(mine);
    }
    this.view = RoutingView.of(newTable);
    this.config = mine;
    if (mine.role() == PortRole.NTB) {
      int internalBus = newTable.internalBus(mine.virtualSwitch());
      if (ntb == null) {
        ntb = new NtbTranslation(mine.ntb(), internalBus, number);
      } else if (!mine.ntb().equals(ntb.config()) || internalBus != ntbInternalBus) {
        ntb = ntb.reconfigured(mine.ntb(), internalBus);
      }
      ntbInternalBus = internalBus;
      for (RequesterIdEntry e : ntb.unplaced()) {
        log.warn("Port [{}] requester-ID entry {} not placed: its index holds"
            + " another requester since first use", name, e);
      }
    }
  }

  /** Sends a configuration completion now, or once the table holds this port's writes. */
  void whenPublished(Runnable send) {
    if (registers.awaitingTable()) {
      afterTable.add(send);
    } else {
      send.run();
    }
  }

  /**
   * Carries out a configuration request for this port's registers ({@code virtualSide}: an NTB's
   * virtual-side ones) and returns its completion, stamped {@code at}. A write that changes the
   * configuration goes to the chip.
   */
  Completion complete(Tlp request, long at, boolean virtualSide) {
    int completer = virtualSide ? config.ntb().virtualSideBdf() : bdf();
    if (request instanceof ConfigRead r) {
      int value = registers.read(r.register(), virtualSide);
      byte[] data = ByteBuffer.allocate(4).putInt(value).array();
      return new Completion(completer, r.requester(), r.tag(), 0, CompletionStatus.SUCCESSFUL,
          4, 0, 4, data, at, 0);
    }
    ConfigWrite w = (ConfigWrite) request;
    PortConfig changed = registers.write(w.register(), w.value(), virtualSide);
    if (changed != null) {
      chip.accept(new SwitchChip.PortConfigured(changed));
    }
    return new Completion(completer, w.requester(), w.tag(), 0, CompletionStatus.SUCCESSFUL,
        0, 0, 0, null, at, 0);
  }

  /** The chip's device manager (on this port) wrote an NTB port's windows: the chip's table takes them. */
  void windowsWritten(io.rackfabric.fabric.management.ManagementAgent.WindowOrder order) {
    chip.accept(new SwitchChip.NtbWindowsWritten(order));
  }

  /** The BDF this port completes and reports errors as. */
  int bdf() {
    if (config.role() == PortRole.UPSTREAM) {
      return Bdf.of(config.bridge().primaryBus(), 0, 0);
    }
    if (config.role() == PortRole.NTB && config.ntb().linkSideBus() >= 0) {
      return ntb.linkSideBdf();
    }
    int internal = Math.max(0, view.internalBus(config.virtualSwitch()));
    return Bdf.of(internal, number, 0);
  }

  /** A type-1 configuration request for this downstream bridge's own secondary bus becomes type 0. */
  Tlp toType0IfOwnBus(Tlp tlp) {
    int secondary = config.bridge().secondaryBus();
    if (tlp instanceof ConfigRead r && r.type() == 1 && Bdf.bus(r.target()) == secondary) {
      return r.asType0();
    }
    if (tlp instanceof ConfigWrite w && w.type() == 1 && Bdf.bus(w.target()) == secondary) {
      return w.asType0();
    }
    return tlp;
  }

  /**
   * Programs an entry of this NTB port's requester-ID table (see {@link
   * SwitchPort.ProgramRequesterId}) and returns the reply. A new entry goes to the chip, which
   * adds it to the routing table; the port adopts it when that is published.
   */
  SwitchPort.RequesterIdReply program(NtbDirection direction, int requester) {
    String reason = null;
    if (config.role() != PortRole.NTB) {
      reason = "port " + name + " is " + config.role() + ", not an NTB port";
    } else if (direction == null) {
      reason = "direction is missing (TO_VIRTUAL or TO_LINK)";
    } else if (requester < 0 || requester > 0xFFFF) {
      reason = "requester=0x" + Integer.toHexString(requester) + " is not a 16-bit requester ID";
    }
    int proxy = reason != null ? -1 : ntb.program(direction, requester);
    if (reason == null && proxy < 0) {
      reason = "the " + direction + " requester-ID table of NTB " + name + " is full ("
          + ntb.capacity(direction) + " entries: " + ntb.space(direction) + ")";
    }
    if (reason != null) {
      log.warn("Port [{}] requester ID not programmed: {}", name, reason);
      return new SwitchPort.RequesterIdRejected(name, direction, requester, reason);
    }
    RequesterIdEntry entry = ntb.programmedEntry(direction, requester);
    if (!config.ntb().requesterIds().contains(entry)) {
      // The translation has the entry already; the chip adds it to the routing table (the one
      // writer of port configurations), and the port adopts that table when it is published.
      chip.accept(new SwitchChip.NtbReprogrammed(number, entry));
    }
    return new SwitchPort.RequesterIdProgrammed(name, direction, requester, entry.index(), proxy);
  }
}
