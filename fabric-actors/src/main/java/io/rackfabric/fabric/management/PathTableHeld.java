package io.rackfabric.fabric.management;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * An endpoint's path table as its device manager holds it at the end of a run, and when it came to
 * hold each distribution whole (the header write of that generation arriving).
 *
 * @param table the valid slots in use
 * @param generation the generation of the last header write applied; 0 before any
 * @param held every header write applied, in order
 * @param malformedWrites path-table writes ignored as malformed
 */
public record PathTableHeld(PathTable table, int generation, List<Held> held, long malformedWrites)
    implements WireMessage {

  public PathTableHeld {
    held = List.copyOf(held);
  }

  /** The header of generation {@code generation} was applied at model {@code at}, ns. */
  public record Held(int generation, long at) implements WireMessage {}

  /** When generation {@code generation} was last held whole at or after {@code from}; -1: never. */
  public long heldAt(int generation, long from) {
    long at = -1;
    for (Held h : held) {
      if (h.generation() == generation && h.at() >= from) {
        at = h.at();
      }
    }
    return at;
  }
}
