package io.rackfabric.persistence.controller;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which tenure of a management host's journal a persistence id holds. A host's first journal is
 * its own id ({@code controller-mmh}, tenure 1); each time it rejoins as backup it writes a new one,
 * {@code controller-mmh.tenure-2}, then 3, and never writes an earlier one again. {@code rack
 * replay} lists them apart.
 *
 * @param base the host's first persistence id
 * @param number from 1
 */
public record Tenure(String base, int number) {

  private static final Pattern NUMBERED = Pattern.compile("(.+)\\.tenure-(\\d+)");

  public Tenure {
    if (number < 1) {
      throw new IllegalArgumentException("number=" + number + " must be at least 1");
    }
  }

  /** The tenure {@code persistenceId} holds: 1 unless it ends in {@code .tenure-K} with K above 1. */
  public static Tenure of(String persistenceId) {
    Matcher m = NUMBERED.matcher(persistenceId);
    if (m.matches() && m.group(2).length() < 10 && Integer.parseInt(m.group(2)) > 1) {
      return new Tenure(m.group(1), Integer.parseInt(m.group(2)));
    }
    return new Tenure(persistenceId, 1);
  }

  public String persistenceId() {
    return number == 1 ? base : base + ".tenure-" + number;
  }

  public Tenure next() {
    return new Tenure(base, number + 1);
  }
}
