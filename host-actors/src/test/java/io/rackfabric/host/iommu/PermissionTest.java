package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PermissionTest {

  @Test
  void shouldAllowOnlyReadsWhenPermissionIsRead() {
    assertTrue(Permission.READ.allows(false));
    assertFalse(Permission.READ.allows(true));
    assertTrue(Permission.READ.allowsRead());
    assertFalse(Permission.READ.allowsWrite());
  }

  @Test
  void shouldAllowOnlyWritesWhenPermissionIsWrite() {
    assertFalse(Permission.WRITE.allows(false));
    assertTrue(Permission.WRITE.allows(true));
    assertFalse(Permission.WRITE.allowsRead());
    assertTrue(Permission.WRITE.allowsWrite());
  }

  @Test
  void shouldAllowBothWhenPermissionIsReadWrite() {
    assertTrue(Permission.READ_WRITE.allows(false));
    assertTrue(Permission.READ_WRITE.allows(true));
  }

  @Test
  void shouldPrintShortSymbolsWhenDebugging() {
    assertEquals("R", Permission.READ.symbol());
    assertEquals("W", Permission.WRITE.symbol());
    assertEquals("RW", Permission.READ_WRITE.symbol());
  }
}
