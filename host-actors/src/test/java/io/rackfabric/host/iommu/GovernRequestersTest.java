package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

class GovernRequestersTest {

  private final IommuAccessCheck iommu = new IommuAccessCheck(
      new IommuTable("ch2", List.of(new AddressRange(0, 1L << 30))), new int[] {0x0300});

  @Test
  void shouldDenyANewlyGovernedRequesterWhenNothingIsOpenToIt() {
    AccessCheckChange.Result r = new GovernRequesters(new int[] {0x0102}).applyTo("ch2", iommu);

    assertTrue(r.accepted(), r.detail());
    assertEquals(InboundAccessCheck.Decision.ALLOW, iommu.decide(0x0102, 0x1000, 64, true), "the old check is unchanged");
    assertEquals(InboundAccessCheck.Decision.DENY, r.check().decide(0x0102, 0x1000, 64, true));
    assertEquals(InboundAccessCheck.Decision.ALLOW, r.check().decide(0x0400, 0x1000, 64, true), "others still served");
  }

  @Test
  void shouldRefuseNamingTheValueWhenAnIdIsNotSixteenBitsOrThereIsNoIommu() {
    AccessCheckChange.Result bad = new GovernRequesters(new int[] {0x1_0000}).applyTo("ch2", iommu);
    AccessCheckChange.Result none = new GovernRequesters(new int[] {0x0102}).applyTo("ch2", InboundAccessCheck.allowAll());

    assertFalse(bad.accepted());
    assertTrue(bad.detail().contains("requester=65536"), bad.detail());
    assertFalse(none.accepted());
    assertTrue(none.detail().contains("has no IOMMU"), none.detail());
  }
}
