package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class ManagementSettingsTest {

  @Test
  void shouldBeOffWithItsDefaultsWhenNothingIsSet() {
    ManagementSettings s = ManagementSettings.create(ConfigFactory.load());
    assertFalse(s.enabled());
    assertEquals("", s.fabricManager());
    assertEquals(10_000, s.discoverAtNs());
    assertEquals(8, s.window());
    assertTrue(s.keepDatabase(), "the secondary keeps the primary's database by default");
    assertTrue(s.distributePaths(), "the primary distributes paths by default");
    assertEquals(ProcessingCost.NONE, s.processing(), "no processing time by default");
    assertTrue(s.writeNtbWindows(), "the primary writes the NTB windows by default");
  }

  @Test
  void shouldWriteNoNtbWindowsWhenTurnedOff() {
    ManagementSettings s = ManagementSettings.create(ConfigFactory.parseString(
        "rackfabric.fabric.management.write-ntb-windows = off").withFallback(ConfigFactory.load()));
    assertFalse(s.writeNtbWindows());
  }

  @Test
  void shouldReadTheProcessingCostWhenSet() {
    ManagementSettings s = ManagementSettings.create(ConfigFactory.parseString(
        "rackfabric.fabric.management { fm-processing-per-packet = 200ns, fm-processing-per-device = 1us }")
        .withFallback(ConfigFactory.load()));
    assertEquals(new ProcessingCost(200, 1_000), s.processing());
  }

  @Test
  void shouldNameTheValueWhenAProcessingCostIsNegative() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ManagementSettings.create(
        ConfigFactory.parseString("rackfabric.fabric.management.fm-processing-per-packet = -5ns")
            .withFallback(ConfigFactory.load())));
    assertEquals("fm-processing-per-packet=-5ns is negative", e.getMessage());
  }

  @Test
  void shouldDistributeNoPathsWhenTurnedOff() {
    ManagementSettings s = ManagementSettings.create(ConfigFactory.parseString(
        "rackfabric.fabric.management.distribute-paths = off").withFallback(ConfigFactory.load()));
    assertFalse(s.distributePaths());
  }

  @Test
  void shouldNameTheValueWhenRoutesPerDestinationIsOutOfRange() {
    assertEquals(1, ManagementSettings.create(ConfigFactory.load()).routesPerDestination(), "the default");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ManagementSettings.create(
        ConfigFactory.parseString("rackfabric.fabric.management.routes-per-destination = 3")
            .withFallback(ConfigFactory.load())));
    assertEquals("routes-per-destination=3 not in [1,2]", e.getMessage());
  }

  @Test
  void shouldNotKeepTheDatabaseWhenTurnedOff() {
    ManagementSettings s = ManagementSettings.create(ConfigFactory.parseString(
        "rackfabric.fabric.management.election.keep-database = off").withFallback(ConfigFactory.load()));
    assertFalse(s.keepDatabase());
  }

  @Test
  void shouldNameTheValueWhenTheWindowIsOutOfRange() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ManagementSettings(true, "", 0, 0));
    assertEquals("window=0 not in [1,65536]", e.getMessage());
  }

  @Test
  void shouldNameTheValueWhenTheStartIsNegative() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ManagementSettings(true, "mh", -1, 8));
    assertEquals("discover-at=-1ns is negative", e.getMessage());
  }

  private static ManagementSettings election(String candidates, String claimAtOf, String settle, String watch) {
    return ManagementSettings.create(ConfigFactory.parseString(
        "rackfabric.fabric.management.election { candidates = \"" + candidates + "\", claim-at-of = \"" + claimAtOf
            + "\", settle = " + settle + ", watch-timeout = " + watch + " }").withFallback(ConfigFactory.load()));
  }

  @Test
  void shouldReadTheCandidatesAndTheirOwnClaimTimesWhenSet() {
    ManagementSettings s = election("mmh, bmh", "bmh=3us", "5us", "6us");
    assertEquals(java.util.List.of("mmh", "bmh"), s.candidates());
    assertEquals(1_000, s.claimAt("mmh"));
    assertEquals(3_000, s.claimAt("bmh"));
    assertEquals(8_000, s.decideAt("bmh"));
    assertEquals(2_000, s.heartbeatNs());
  }

  @Test
  void shouldRefuseAnElectionThatDecidesAfterTheDiscoveryWhenClaimsAreLate() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> election("", "bmh=6us", "5us", "6us"));
    assertEquals("the election decides at 11000ns (latest claim + election.settle), after discover-at=10000ns:"
        + " the primary must be known before it discovers", e.getMessage());
  }

  @Test
  void shouldNameTheEntryWhenAClaimTimeIsMalformed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> election("", "bmh", "5us", "6us"));
    assertEquals("election.claim-at-of entry 'bmh' is not ID=DURATION", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> election("", "bmh=soon", "5us", "6us"));
    assertEquals("election.claim-at-of entry 'bmh=soon': soon is no duration", e.getMessage());
  }

  @Test
  void shouldRefuseAWatchNoLongerThanTheHeartbeatWhenSet() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> election("", "", "5us", "2us"));
    assertEquals("election.watch-timeout=2000ns is not longer than election.heartbeat=2000ns: the secondary would"
        + " take over from a live primary", e.getMessage());
  }

  @Test
  void shouldRefuseACandidateNamedTwiceWhenSet() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> election("mmh, mmh", "", "5us", "6us"));
    assertEquals("election.candidates=[mmh, mmh] names a candidate twice", e.getMessage());
  }
}
