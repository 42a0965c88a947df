package io.rackfabric.host.enumeration;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Replacing one slot's subtree in the immutable tree of a result, as a rescan does. */
class FunctionTreeTest {

  private static FunctionNode node(String location, FunctionNode... children) {
    return new FunctionNode(0, location, children.length == 0 ? FunctionKind.ENDPOINT : FunctionKind.DOWNSTREAM_PORT,
        0x10b5, 0x8748, 0, List.of(), null, List.of(children), null, 0);
  }

  private static List<String> locations(List<FunctionNode> roots) {
    return roots.stream().flatMap(n -> n.subtree().stream()).map(FunctionNode::location).toList();
  }

  private static final List<FunctionNode> TREE = List.of(node("00.0",
      node("00.0/01.0", node("00.0/01.0/00.0")),
      node("00.0/03.0")));

  @Test
  void shouldInsertTheChildInLocationOrderWhenTheSlotWasEmpty() {
    List<FunctionNode> out = FunctionTree.replaceChild(TREE, "00.0", "00.0/02.0", node("00.0/02.0"));
    assertEquals(List.of("00.0", "00.0/01.0", "00.0/01.0/00.0", "00.0/02.0", "00.0/03.0"), locations(out));
  }

  @Test
  void shouldDropTheChildWhenItsReplacementIsNull() {
    List<FunctionNode> out = FunctionTree.replaceChild(TREE, "00.0", "00.0/01.0", null);
    assertEquals(List.of("00.0", "00.0/03.0"), locations(out));
  }

  @Test
  void shouldReplaceADeeperChildWhenTheParentIsBelowTheRoot() {
    FunctionNode bridge = node("00.0/01.0/00.0", node("00.0/01.0/00.0/00.0"));
    List<FunctionNode> out = FunctionTree.replaceChild(TREE, "00.0/01.0", "00.0/01.0/00.0", bridge);
    assertEquals(List.of("00.0", "00.0/01.0", "00.0/01.0/00.0", "00.0/01.0/00.0/00.0", "00.0/03.0"), locations(out));
    assertEquals(List.of("00.0", "00.0/01.0", "00.0/01.0/00.0", "00.0/03.0"), locations(TREE), "the input is unchanged");
  }

  @Test
  void shouldSpliceOnTheRootBusWhenTheParentIsTheRoot() {
    List<FunctionNode> out = FunctionTree.replaceChild(TREE, "", "01.0", node("01.0"));
    assertEquals(List.of("00.0", "00.0/01.0", "00.0/01.0/00.0", "00.0/03.0", "01.0"), locations(out));
  }
}
