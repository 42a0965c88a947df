package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostMemoryTest {

  @Test
  void shouldMergeRangesThatTouchOrOverlapWhateverTheirOrder() {
    HostMemory m = new HostMemory(List.of(new AddressRange(0x5000, 0x5FFF), new AddressRange(0x0, 0x1FFF),
        new AddressRange(0x1000, 0x2FFF), new AddressRange(0x3000, 0x3FFF)));
    assertEquals(List.of(new AddressRange(0x0, 0x3FFF), new AddressRange(0x5000, 0x5FFF)), m.ranges());
    assertEquals("[0x0..0x3FFF], [0x5000..0x5FFF]", m.toString());
  }

  @Test
  void shouldMergeARangeEndingAtTheTopOfTheAddressSpaceWithEverythingAfterIt() {
    HostMemory m = new HostMemory(List.of(new AddressRange(-0x2000L, -1L), new AddressRange(-0x1000L, -0x800L)));
    assertEquals(List.of(new AddressRange(-0x2000L, -1L)), m.ranges());
    assertEquals(-1, m.firstPageOutside(-2L >>> IommuTable.PAGE_SHIFT, -1L >>> IommuTable.PAGE_SHIFT));
  }

  @Test
  void shouldCountOnlyWholePagesWhenARangeStartsOrEndsInsideOne() {
    HostMemory m = new HostMemory(List.of(new AddressRange(0x800, 0x37FF)));
    assertEquals(0, m.firstPageOutside(0, 0), "page 0 is only half inside");
    assertEquals(-1, m.firstPageOutside(1, 2));
    assertEquals(3, m.firstPageOutside(1, 3), "page 3 is only half inside");
  }

  @Test
  void shouldNameTheFirstPageOutsideWhenARunLeavesOrMissesMemory() {
    HostMemory m = new HostMemory(List.of(new AddressRange(0x1000, 0x2FFF), new AddressRange(0x8000, 0x8FFF)));
    assertEquals(-1, m.firstPageOutside(8, 8));
    assertEquals(3, m.firstPageOutside(1, 8), "the gap between the ranges");
    assertEquals(5, m.firstPageOutside(5, 6));
    assertEquals(9, m.firstPageOutside(8, 9));
    assertEquals(0, m.firstPageOutside(0, 1));
  }
}
