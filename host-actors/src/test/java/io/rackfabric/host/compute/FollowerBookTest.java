package io.rackfabric.host.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FollowerBookTest {

  @Test
  void shouldCountEachChangeForEachFollowerUntilItFollowedWhenTwoFollow() {
    FollowerBook<String, String> book = new FollowerBook<>();
    assertTrue(book.add("a", "to-a"));
    assertTrue(book.add("b", "to-b"));
    assertFalse(book.add("a", "to-a"), "a follows once");
    List<String> told = new ArrayList<>();
    book.announce(told::add);
    book.announce(told::add);
    assertEquals(List.of("to-a", "to-b", "to-a", "to-b"), told);
    assertEquals(4, book.pending());
    book.followed("a");
    book.followed("a");
    book.followed("a"); // one too many changes nothing
    assertEquals(2, book.pending());
    book.followed("b");
    book.followed("b");
    assertEquals(0, book.pending());
  }

  @Test
  void shouldForgetWhatAStoppedFollowerOwedWhenItIsRemoved() {
    FollowerBook<String, String> book = new FollowerBook<>();
    book.add("a", "to-a");
    book.add("b", "to-b");
    book.announce(to -> { });
    book.followed("b");
    assertEquals(1, book.remove("a"));
    assertEquals(0, book.pending());
    assertEquals(0, book.remove("a"), "gone already");
    List<String> told = new ArrayList<>();
    book.announce(told::add);
    assertEquals(List.of("to-b"), told);
  }
}
