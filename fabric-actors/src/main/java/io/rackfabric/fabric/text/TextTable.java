package io.rackfabric.fabric.text;

import java.util.List;

/** Plain-text tables for the command line: left-aligned columns, two spaces apart. */
public final class TextTable {

  private TextTable() {}

  /** Appends the rows as aligned lines; the last column is not padded. */
  public static void append(StringBuilder sb, String indent, List<String[]> rows) {
    if (rows.isEmpty()) {
      return;
    }
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int c = 0; c < columns; c++) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int c = 0; c < columns; c++) {
        line.append(c == columns - 1 ? r[c] : String.format("%-" + width[c] + "s  ", r[c]));
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
