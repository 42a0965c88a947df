package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalBookTest {

  @Test
  void shouldCountOnlyUniqueNumberedWritesIssuedBeforeTheAskedTime() {
    ArrivalBook book = new ArrivalBook();
    book.countIssuedBefore(1_000);
    book.arrived(7, 0, 900, 64, 1_100, true);
    book.arrived(7, 0, 900, 64, 1_200, true); // a duplicate
    book.arrived(7, 1, 1_000, 64, 1_300, true); // issued at the time itself: after
    book.arrived(7, -1, 950, 4, 1_050, false); // host software's own mailbox write
    assertEquals(1, book.uniqueIssuedBefore());
    assertEquals(4, book.writes());
    assertEquals(196, book.bytes());
    assertEquals(100, book.minLatency());
    assertEquals(300, book.maxLatency());
  }

  @Test
  void shouldTellAWaiterOnceItsNumberOfUniqueWritesArrived() {
    ArrivalBook book = new ArrivalBook();
    List<Long> told = new ArrayList<>();
    book.await(2, told::add);
    book.arrived(3, 0, 0, 8, 10, true);
    assertEquals(List.of(), told);
    book.arrived(3, 1, 0, 8, 20, true);
    assertEquals(List.of(2L), told);
    book.await(1, told::add);
    assertEquals(List.of(2L, 2L), told, "already there: told at once");
  }
}
