package io.rackfabric.loadtests.scenario.language;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of fault, invariant and figure kinds that scenario files may name. Adding a kind
 * is one class and one line: {@code .fault(new LinkDownFault())}. The type parameters let the
 * runner's catalog hold kinds that can also act ({@code FaultType} injects, {@code InvariantType}
 * evaluates, {@code FigureType} produces) while this module only parses and checks.
 *
 * @param <F> the fault kinds' type
 * @param <I> the invariant kinds' type
 * @param <G> the figure producers' type
 */
public final class KindCatalog<F extends FaultKind, I extends InvariantKind, G extends FigureKind> {

  private final Map<String, F> faults;
  private final Map<String, I> invariants;
  private final Map<String, G> figures;
  private final List<String> defaultFigures;

  private KindCatalog(Builder<F, I, G> b) {
    this.faults = Collections.unmodifiableMap(new LinkedHashMap<>(b.faults));
    this.invariants = Collections.unmodifiableMap(new LinkedHashMap<>(b.invariants));
    this.figures = Collections.unmodifiableMap(new LinkedHashMap<>(b.figures));
    this.defaultFigures = List.copyOf(b.defaultFigures);
  }

  public static <F extends FaultKind, I extends InvariantKind, G extends FigureKind> Builder<F, I, G> builder() {
    return new Builder<>();
  }

  public Optional<F> fault(String name) {
    return Optional.ofNullable(faults.get(name));
  }

  public Optional<I> invariant(String name) {
    return Optional.ofNullable(invariants.get(name));
  }

  public Optional<G> figure(String name) {
    return Optional.ofNullable(figures.get(name));
  }

  /** In registration order. */
  public Collection<F> faults() {
    return faults.values();
  }

  public Collection<I> invariants() {
    return invariants.values();
  }

  public Collection<G> figures() {
    return figures.values();
  }

  /** The producers a scenario without a {@code figures} list gets. */
  public List<String> defaultFigures() {
    return defaultFigures;
  }

  /** Collects kinds; a name registered twice is a programming error, refused at once. */
  public static final class Builder<F extends FaultKind, I extends InvariantKind, G extends FigureKind> {
    private final Map<String, F> faults = new LinkedHashMap<>();
    private final Map<String, I> invariants = new LinkedHashMap<>();
    private final Map<String, G> figures = new LinkedHashMap<>();
    private final List<String> defaultFigures = new java.util.ArrayList<>();

    private Builder() {}

    public Builder<F, I, G> fault(F kind) {
      put(faults, kind, "fault");
      return this;
    }

    public Builder<F, I, G> invariant(I kind) {
      put(invariants, kind, "invariant");
      return this;
    }

    /** A producer every scenario gets unless its {@code figures} list says otherwise. */
    public Builder<F, I, G> figure(G kind) {
      put(figures, kind, "figure");
      defaultFigures.add(kind.name());
      return this;
    }

    /** A producer that runs only when a scenario names it. */
    public Builder<F, I, G> optionalFigure(G kind) {
      put(figures, kind, "figure");
      return this;
    }

    public KindCatalog<F, I, G> build() {
      return new KindCatalog<>(this);
    }

    private static <K extends ScenarioKind> void put(Map<String, K> into, K kind, String what) {
      if (!kind.name().matches("[a-z][a-z0-9-]*")) {
        throw new IllegalArgumentException(what + " kind name '" + kind.name() + "' is not lower case with dashes");
      }
      K earlier = into.putIfAbsent(kind.name(), kind);
      if (earlier != null) {
        throw new IllegalArgumentException(what + " kind '" + kind.name() + "' registered twice ("
            + earlier.getClass().getName() + ", " + kind.getClass().getName() + ")");
      }
    }
  }
}
