package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddressRangeFieldTest {

  final Problems problems = new Problems("t.conf", Path.of("t.conf"));

  Fields fields(String hocon) {
    return new Fields(ConfigFactory.parseString(hocon).root(), "rack", problems);
  }

  @Test
  void shouldReadBaseAndInclusiveLimitWhenWrittenAsAPair() {
    AddressRange r = fields("w = [\"0x90000\", \"0xEFFFF\"]").range("w", true);

    assertEquals(new AddressRange(0x90000, 0xEFFFF), r);
    assertTrue(problems.isEmpty(), problems.sorted().toString());
  }

  @Test
  void shouldReadBaseAndSizeOrLimitWhenWrittenAsAnObject() {
    assertEquals(new AddressRange(0x1000, 0x1FFF), fields("w { base = 0x1000, size = 4KiB }").range("w", true));
    assertEquals(new AddressRange(0x1000, 0x1FFF), fields("w { base = 0x1000, limit = 0x1FFF }").range("w", true));
    assertTrue(problems.isEmpty(), problems.sorted().toString());
  }

  @Test
  void shouldReportTheKeyWhenBaseIsAboveLimit() {
    assertNull(fields("w = [\"0x2000\", \"0x1000\"]").range("w", true));

    List<String> p = problems.sorted();
    assertEquals(1, p.size());
    assertTrue(p.get(0).contains("rack.w: base 0x2000 is above limit 0x1000"), p.get(0));
  }

  @Test
  void shouldReportBothWhenSizeAndLimitAreGiven() {
    assertNull(fields("base = 0x1000, size = 16, limit = 0x1FFF").baseSizeOrLimit());

    assertTrue(problems.sorted().get(0).contains("rack.limit: give either size or limit, not both"),
        problems.sorted().toString());
  }

  @Test
  void shouldReportAMissingSizeWhenNeitherSizeNorLimitIsGiven() {
    assertNull(fields("base = 0x1000").baseSizeOrLimit());

    assertTrue(problems.sorted().get(0).contains("rack.size: missing (required: size, or limit)"),
        problems.sorted().toString());
  }

  @Test
  void shouldReportTheShapeWhenTheValueIsNeitherAPairNorAnObject() {
    assertNull(fields("w = 12").range("w", true));

    assertTrue(problems.sorted().get(0).contains("rack.w: expected [base, limit] or { base, size }, got 12"),
        problems.sorted().toString());
  }
}
