package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.replay.StateSections.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What changed between two controller states, entry by entry in each section. */
public final class StateDiff {

  public enum Kind { ADDED, REMOVED, CHANGED }

  /** One entry: {@code before} is null when added, {@code after} when removed. */
  public record Change(Kind kind, String key, Object before, Object after) {}

  /** The changes of one section, removed and changed in the earlier state's order, then added. */
  record SectionChanges(Section section, List<Change> changes) {

    long count(Kind kind) {
      return changes.stream().filter(c -> c.kind() == kind).count();
    }
  }

  private final List<SectionChanges> sections;

  private StateDiff(List<SectionChanges> sections) {
    this.sections = sections;
  }

  public static StateDiff between(ControllerState from, ControllerState to) {
    List<Section> a = StateSections.of(from);
    List<Section> b = StateSections.of(to);
    List<SectionChanges> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      Section before = a.get(i);
      Section after = b.get(i);
      List<Change> changes = new ArrayList<>();
      before.entries().forEach((key, value) -> {
        if (!after.entries().containsKey(key)) {
          changes.add(new Change(Kind.REMOVED, key, value, null));
        } else if (!Objects.equals(value, after.entries().get(key))) {
          changes.add(new Change(Kind.CHANGED, key, value, after.entries().get(key)));
        }
      });
      after.entries().forEach((key, value) -> {
        if (!before.entries().containsKey(key)) {
          changes.add(new Change(Kind.ADDED, key, null, value));
        }
      });
      out.add(new SectionChanges(after, changes));
    }
    return new StateDiff(out);
  }

  /** Every section, also those without a change. */
  List<SectionChanges> sections() {
    return sections;
  }

  /** The changes of the section named {@code name} ("hosts", "iommu", ...). */
  public List<Change> changes(String name) {
    return sections.stream().filter(s -> s.section().name().equals(name)).findFirst()
        .map(SectionChanges::changes)
        .orElseThrow(() -> new IllegalArgumentException("section=" + name + " is not known"));
  }

  public boolean isEmpty() {
    return sections.stream().allMatch(s -> s.changes().isEmpty());
  }
}
