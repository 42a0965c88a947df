package io.rackfabric.host.iommu;

import static io.rackfabric.fabric.endpoint.InboundAccessCheck.Decision.ALLOW;
import static io.rackfabric.fabric.endpoint.InboundAccessCheck.Decision.DENY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.AccessCheckChange.Result;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;
import org.junit.jupiter.api.Test;

class IommuAccessCheckTest {

  private static final List<AddressRange> MEMORY = List.of(AddressRange.ofSize(0, 1L << 30));
  private static final long PAGE = 0x5000;
  // IDs as they arrive at the host: proxies of the NTB's virtual side 02:00 (ARI numbering).
  private static final int B = (2 << 8) | 1;
  private static final int D = (2 << 8) | 9;

  private static IommuAccessCheck fresh() {
    return new IommuAccessCheck(new IommuTable("ch3", MEMORY));
  }

  @Test
  void shouldAllowOnlyTheOpenedRequesterAndKindWhenPagesAreOpened() {
    IommuAccessCheck check = fresh();
    assertEquals(DENY, check.decide(B, PAGE, 4, false), "nothing is open at first");
    Result opened = new OpenIommuPages(B, PAGE, 2, Permission.READ).applyTo("ch3", check);
    assertTrue(opened.accepted(), opened.detail());
    assertSame(check, opened.check(), "changed in place, owned by the endpoint");
    assertTrue(opened.detail().startsWith("ch3: opened 2 page(s) at 0x5000 to " + Bdf.format(B)),
        opened.detail());

    assertEquals(ALLOW, check.decide(B, PAGE, 4, false));
    assertEquals(ALLOW, check.decide(B, PAGE + 0x1FFC, 4, false), "the second page");
    assertEquals(DENY, check.decide(B, PAGE + 0x1FFC, 8, false), "runs into a closed page");
    assertEquals(DENY, check.decide(B, PAGE, 4, true), "opened for reading only");
    assertEquals(DENY, check.decide(D, PAGE, 4, false), "another requester");

    new OpenIommuPages(B, PAGE, 1, Permission.READ_WRITE).applyTo("ch3", check);
    assertEquals(ALLOW, check.decide(B, PAGE, 4, true));
    Result closed = new CloseIommuPages(B, PAGE, 2).applyTo("ch3", check);
    assertTrue(closed.accepted(), closed.detail());
    assertEquals(DENY, check.decide(B, PAGE, 4, false));
  }

  @Test
  void shouldRefuseWithTheTablesReasonWhenValuesAreBad() {
    IommuAccessCheck check = fresh();
    Result unaligned = new OpenIommuPages(B, PAGE + 4, 1, Permission.READ).applyTo("ch3", check);
    assertFalse(unaligned.accepted());
    assertEquals("address 0x5004 is not 4 KiB aligned", unaligned.detail());
    Result outside = new OpenIommuPages(B, 1L << 30, 1, Permission.READ).applyTo("ch3", check);
    assertFalse(outside.accepted());
    assertTrue(outside.detail().contains("outside host ch3's memory"), outside.detail());
    Result notOpen = new CloseIommuPages(B, PAGE, 1).applyTo("ch3", check);
    assertFalse(notOpen.accepted());
    assertTrue(notOpen.detail().contains("is not open to"), notOpen.detail());
    Result noPermission = new OpenIommuPages(B, PAGE, 1, null).applyTo("ch3", check);
    assertFalse(noPermission.accepted());
    assertEquals(DENY, check.decide(B, PAGE, 4, false), "nothing changed");
  }

  @Test
  void shouldRefuseOpenAndCloseWhenTheEndpointHasNoIommuUntilOneIsInstalled() {
    InboundAccessCheck none = InboundAccessCheck.allowAll();
    Result open = new OpenIommuPages(B, PAGE, 1, Permission.READ).applyTo("ch3", none);
    assertFalse(open.accepted());
    assertTrue(open.detail().contains("endpoint ch3 has no IOMMU"), open.detail());
    assertFalse(new CloseIommuPages(B, PAGE, 1).applyTo("ch3", none).accepted());

    Result installed = new InstallIommu("ch3", MEMORY).applyTo("ch3", none);
    assertTrue(installed.accepted(), installed.detail());
    IommuAccessCheck iommu = assertInstanceOf(IommuAccessCheck.class, installed.check());
    assertEquals(DENY, iommu.decide(B, PAGE, 4, false), "a fresh IOMMU opens nothing");
    assertTrue(new OpenIommuPages(B, PAGE, 1, Permission.READ).applyTo("ch3", iommu).accepted());
    assertEquals(ALLOW, iommu.decide(B, PAGE, 4, false));

    Result bad = new InstallIommu("ch3", List.of()).applyTo("ch3", none);
    assertFalse(bad.accepted());
    assertTrue(bad.detail().contains("no memory ranges"), bad.detail());
    assertFalse(new InstallIommu(" ", MEMORY).applyTo("ch3", none).accepted());
    assertFalse(new InstallIommu("ch3", null).applyTo("ch3", none).accepted());
  }

  @Test
  void shouldRejectNullTableWhenConstructed() {
    assertThrows(IllegalArgumentException.class, () -> new IommuAccessCheck(null));
  }
}
