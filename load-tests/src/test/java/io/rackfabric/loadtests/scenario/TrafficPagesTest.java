package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.host.iommu.IommuTable;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficPagesTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @Test
  void shouldOpenExactlyThePagesEachGeneratorCoversWhenTheRackHasAManagementHost() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("iommu-isolation", KINDS, ScenarioOptions.NONE);
    List<TrafficPages.Open> opens = TrafficPages.of(s.topology().topology(), s.traffic());
    assertEquals(s.traffic().size(), opens.size());
    for (int i = 0; i < opens.size(); i++) {
      TrafficSpec t = s.traffic().get(i);
      TrafficPages.Open o = opens.get(i);
      assertEquals(t.sink(), o.target());
      assertEquals(t.from(), o.requester());
      long end = o.firstPage() + o.pages() * IommuTable.PAGE_SIZE;
      assertTrue(o.firstPage() <= t.sinkRegion().base() && t.sinkRegion().limit() < end, "covers " + t.name());
      assertTrue(t.sinkRegion().base() - o.firstPage() < IommuTable.PAGE_SIZE
          && end - 1 - t.sinkRegion().limit() < IommuTable.PAGE_SIZE, "no page more than needed: " + o);
    }
  }

  @Test
  void shouldOpenNothingWhenTheRackHasNoManagementHost() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("tlp-drop-demo", KINDS, ScenarioOptions.NONE);
    assertEquals(List.of(), TrafficPages.of(s.topology().topology(), s.traffic()));
  }
}
