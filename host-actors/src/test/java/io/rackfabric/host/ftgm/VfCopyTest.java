package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.host.nic.SriovNic;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VfCopyTest {

  static VfCopy copy() {
    VfCopy c = new VfCopy();
    c.open(new NicFaultDaemon.OpenVf(2, 0x22, 0, null));
    c.open(new NicFaultDaemon.OpenVf(0, 0x11, 0x12, null));
    return c;
  }

  @Test
  void shouldRestoreEveryVfOfTheCopyInVfOrderWhenNoControllerSays() {
    VfCopy c = copy();
    c.restoreAll();
    assertEquals(List.of(0, 2), c.restored().stream().map(NicFaultDaemon.OpenVf::vf).toList());
    assertEquals(List.of(new SriovNic.VfEntry(0, 0x11, 0x12), new SriovNic.VfEntry(2, 0x22, 0)), c.table());
    assertEquals("2 VFs from the MH's copy", c.describe());
  }

  @Test
  void shouldRestoreOnlyTheLentVfsOfTheCopyWhenTheControllerLendsFewer() {
    VfCopy c = copy();
    c.restoreLent(Set.of(2, 7)); // 7 was never opened here: not restored
    assertEquals(List.of(new SriovNic.VfEntry(2, 0x22, 0)), c.table());
    assertEquals("1 VFs from the controller's lent VFs", c.describe());
    c.restoreAll();
    assertEquals(2, c.table().size(), "the next recovery without a controller's answer restores the copy");
  }
}
