package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Programming: every BAR and bridge window written as {@link BarAssignment} placed it, then every
 * register written read back; a register that reads back otherwise is reported (it did not take
 * effect). Bus numbers written during the walk are checked the same way.
 */
final class RegisterProgramming {

  private final ConfigRequests requests;
  /** Registers written, keyed by function and register, with the value a read must return. */
  private final Map<Long, Integer> expected = new LinkedHashMap<>();

  RegisterProgramming(ConfigRequests requests) {
    this.requests = requests;
  }

  /** Writes the subtrees' BARs and windows, then reads back everything written so far. */
  void programAndVerify(List<ProbedFunction> top) {
    List<Runnable> writes = new ArrayList<>();
    top.forEach(f -> programSubtree(f, writes));
    writes.add(this::verify);
    requests.then(writes);
  }

  /** A write whose effect the final read-back checks. */
  Runnable program(ProbedFunction f, int register, int value, int readsBack) {
    expect(f, register, readsBack);
    return requests.write(f, register, value);
  }

  /** A register the final read-back checks, though this run does not write it (a rescanned slot's buses). */
  void expect(ProbedFunction f, int register, int readsBack) {
    expected.put(((long) f.bdf() << 8) | register, readsBack);
  }

  private void programSubtree(ProbedFunction f, List<Runnable> writes) {
    if (!f.kind.bridge()) {
      for (BarProbe bar : f.bars) {
        if (bar.base == null) {
          continue;
        }
        int reg = ConfigSpace.REG_BAR0 + bar.index;
        int low = (int) (bar.base & 0xFFFF_FFF0L);
        writes.add(program(f, reg, low, low | bar.typeBits));
        if (bar.is64) {
          int high = (int) (bar.base >>> 32);
          writes.add(program(f, reg + 1, high, high));
        }
      }
      return;
    }
    if (f.skipped) {
      return;
    }
    int memory = encode(f.memWindow);
    writes.add(program(f, ConfigSpace.REG_MEMORY, memory, memory));
    int prefetch = encode(f.prefWindow);
    int baseUpper = f.prefWindow == null ? 0 : (int) (f.prefWindow.base() >>> 32);
    int limitUpper = f.prefWindow == null ? 0 : (int) (f.prefWindow.limit() >>> 32);
    // Upper base first, as Linux does: the window is off until the limit's upper half is written.
    writes.add(program(f, ConfigSpace.REG_PREFETCH_BASE_UPPER, baseUpper, baseUpper));
    writes.add(program(f, ConfigSpace.REG_PREFETCH, prefetch, prefetch | 0x0001_0001));
    writes.add(program(f, ConfigSpace.REG_PREFETCH_LIMIT_UPPER, limitUpper, limitUpper));
    f.children.forEach(c -> programSubtree(c, writes));
  }

  /** A base/limit register pair: bits 31..20 of each; base above limit when disabled. */
  static int encode(AddressRange window) {
    if (window == null) {
      return 0x0000_FFF0;
    }
    return (int) ((window.base() >>> 16) & 0xFFF0) | (int) (((window.limit() >>> 16) & 0xFFF0) << 16);
  }

  private void verify() {
    List<Runnable> reads = new ArrayList<>();
    expected.forEach((key, value) -> {
      int bdf = (int) (key >>> 8);
      int register = (int) (key & 0xFF);
      reads.add(() -> requests.issue(ConfigRequests.op(bdf, register, null), a -> {
        if (!a.successful()) {
          requests.problem(Bdf.format(bdf) + ": read-back of register " + register + " got "
              + ConfigRequests.status(a));
        } else if (a.value() != value) {
          requests.problem(Bdf.format(bdf) + ": register " + register + " was written to read 0x"
              + Integer.toHexString(value) + " but reads 0x" + Integer.toHexString(a.value()) + " (did not take effect)");
        }
      }));
    });
    expected.clear();
    requests.then(reads);
  }
}
