package io.rackfabric.loadtests.scenario.language;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The expansion of a random schedule on its own: Poisson times from the seed, one fault per target at a time. */
class RandomFaultsTest {

  private static final RandomFaults.Window WINDOW = new RandomFaults.Window(Clock.MODEL, 1_000, 1_001_000);

  /** A kind of {@code steps} steps {@code gap} ns apart, on targets that are themselves. */
  private static FaultKind kind(String name, int steps, long gap) {
    return new FaultKind() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String summary() {
        return "test";
      }

      @Override
      public Target target() {
        return new Target() {
          @Override
          public String description() {
            return "anything";
          }

          @Override
          public Optional<String> problem(String target, ScenarioContext context) {
            return Optional.empty();
          }
        };
      }

      @Override
      public List<Long> steps(long at, Params params) {
        return java.util.stream.LongStream.range(0, steps).map(i -> at + i * gap).boxed().toList();
      }
    };
  }

  private static RandomFaults.Plan plan(FaultKind kind, double rate, String... targets) {
    return new RandomFaults.Plan(kind, rate, List.of(targets), Params.NONE, "t.conf:3");
  }

  private static List<FaultSpec> expand(long seed, RandomFaults.Plan... plans) {
    return RandomFaults.expand(seed, WINDOW, 1_000_000, List.of(plans), null, Map.of()).faults();
  }

  @Test
  void shouldGiveAboutTheMeanCountInsideTheWindowWhenTheRateIsHigh() {
    for (long seed = 1; seed <= 5; seed++) {
      List<Long> times = RandomFaults.times(RandomFaults.stream(seed, "k", "times"), 500, 1_000_000, 1_000, 1_001_000);
      assertTrue(times.size() > 400 && times.size() < 600, "mean 500, got " + times.size());
      assertTrue(times.get(0) >= 1_000 && times.get(times.size() - 1) < 1_001_000, times.toString());
      for (int i = 1; i < times.size(); i++) {
        assertTrue(times.get(i) >= times.get(i - 1), "ascending");
      }
    }
  }

  @Test
  void shouldGiveTheSameFaultsForTheSameSeedAndOthersForAnother() {
    FaultKind flap = kind("flap", 2, 100);
    List<FaultSpec> a = expand(7, plan(flap, 20, "x", "y", "z"));
    assertEquals(a, expand(7, plan(flap, 20, "x", "y", "z")));
    assertNotEquals(a, expand(8, plan(flap, 20, "x", "y", "z")));
    assertTrue(a.size() > 5, a.toString());
    assertTrue(a.stream().allMatch(f -> f.random() && f.at().written().equals("random-faults seed 7")
        && f.where().equals("t.conf:3")), a.toString());
  }

  @Test
  void shouldDrawNothingWhenTheRateIsZero() {
    assertEquals(List.of(), expand(7, plan(kind("flap", 2, 100), 0, "x")));
  }

  @Test
  void shouldSkipArrivalsWhenEveryTargetIsStillInAFaultOrBrokenForGood() {
    // Long flaps on one target: an arrival during one is skipped.
    FaultKind slow = kind("slow", 2, 200_000);
    RandomFaults.Expansion e = RandomFaults.expand(3, WINDOW, 1_000_000, List.of(plan(slow, 30, "x")), null, Map.of());
    List<FaultSpec> f = e.faults();
    for (int i = 1; i < f.size(); i++) {
      assertTrue(f.get(i).at().nanos() > f.get(i - 1).steps().get(1), f.toString());
    }
    assertTrue(e.skippedBusy() > 0, "30 arrivals of 200us-long faults in 1ms cannot all fit one target");
    // A one-step fault leaves its target broken: each target is hit at most once.
    List<FaultSpec> downs = expand(3, plan(kind("down", 1, 0), 50, "x", "y"));
    assertEquals(List.of("x", "y"), downs.stream().map(FaultSpec::target).sorted().toList());
    // An explicit fault already there counts.
    List<FaultSpec> none = RandomFaults.expand(3, WINDOW, 1_000_000, List.of(plan(kind("down", 1, 0), 50, "x")), null,
        Map.of("x", Long.MAX_VALUE)).faults();
    assertEquals(List.of(), none);
  }

  @Test
  void shouldKeepAKindsTimesWhenAnotherKindIsAdded() {
    FaultKind a = kind("a", 1, 0);
    FaultKind b = kind("b", 1, 0);
    List<Long> alone = expand(5, plan(a, 10, "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
        "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20")).stream().map(f -> f.at().nanos()).toList();
    List<Long> beside = expand(5, plan(a, 10, "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
        "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20"), plan(b, 10, "y"))
        .stream().filter(f -> f.kind().equals("a")).map(f -> f.at().nanos()).toList();
    assertEquals(alone, beside);
  }

  @Test
  void shouldLeaveOutAFaultWhoseStepsWouldNotEndInsideTheWindow() {
    RandomFaults.Expansion e = RandomFaults.expand(11, WINDOW, 1_000_000,
        List.of(plan(kind("long", 2, 900_000), 5, "x", "y", "z", "w")), null, Map.of());
    assertTrue(e.faults().stream().allMatch(f -> f.at().nanos() < WINDOW.until() - 900_000), e.toString());
    assertTrue(e.skippedAtEnd() > 0, "arrivals in the last 900us of the window would end after it: " + e);
  }
}
