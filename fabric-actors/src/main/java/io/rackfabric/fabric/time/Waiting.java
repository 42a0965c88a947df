package io.rackfabric.fabric.time;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the time keeper's next round waits for, in words, for the progress line of a stalled run. */
final class Waiting {

  private static final int SHOWN = 4;

  private Waiting() {}

  /**
   * The restarted members not back yet, else the members owing a report, else the members owed
   * messages (what each received, of what, from whom); "" for none. Names in sorted order.
   */
  static String describe(Map<String, SyncMember> members, Inflows inflows, Restarts restarts) {
    if (!restarts.noneAwaited()) {
      return "the restarted " + String.join(", ", restarts.awaited()) + " to join again";
    }
    Map<String, SyncMember> sorted = new TreeMap<>(members);
    List<String> owing = new ArrayList<>();
    List<String> owed = new ArrayList<>();
    for (Map.Entry<String, SyncMember> e : sorted.entrySet()) {
      SyncMember m = e.getValue();
      if (m.running && m.outstanding) {
        owing.add(e.getKey());
      } else if (m.running && !m.balanced) {
        owed.add(e.getKey() + " (received " + m.received + " of " + inflows.sentTo(m.index) + ": "
            + sendersTo(sorted, m.index) + ")");
      }
    }
    if (!owing.isEmpty()) {
      return "reports from " + firstFew(owing);
    }
    if (!owed.isEmpty()) {
      return "messages in flight to " + firstFew(owed);
    }
    return "";
  }

  private static String firstFew(List<String> names) {
    return String.join(", ", names.subList(0, Math.min(SHOWN, names.size())))
        + (names.size() > SHOWN ? " and " + (names.size() - SHOWN) + " more" : "");
  }

  /** What each member says it sent to member {@code index}, stopped senders marked. */
  private static String sendersTo(Map<String, SyncMember> sorted, int index) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, SyncMember> e : sorted.entrySet()) {
      SyncMember s = e.getValue();
      for (int k = 0; k < s.targets.length; k++) {
        if (s.targets[k] == index && s.sentTo[k] > 0) {
          out.add(s.sentTo[k] + " from " + e.getKey() + (s.running ? "" : " (stopped)"));
        }
      }
    }
    return String.join(", ", out);
  }
}
