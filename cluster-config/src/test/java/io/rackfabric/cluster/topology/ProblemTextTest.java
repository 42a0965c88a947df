package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ProblemTextTest {

  @Test
  void shouldSayNoneWhenThereAreNoNames() {
    assertEquals("none", ProblemText.hint(List.of()));
  }

  @Test
  void shouldListEveryNameWhenThereAreTwelveAtMost() {
    List<String> names = IntStream.rangeClosed(1, 12).mapToObj(i -> "sw" + i).toList();
    assertEquals(String.join(", ", names), ProblemText.hint(names));
  }

  @Test
  void shouldCutTheListAndCountAllWhenThereAreMoreThanTwelve() {
    List<String> names = IntStream.rangeClosed(1, 30).mapToObj(i -> "sw" + i).toList();
    assertEquals(String.join(", ", names.subList(0, 12)) + ", ... (30 in all)", ProblemText.hint(names));
  }
}
