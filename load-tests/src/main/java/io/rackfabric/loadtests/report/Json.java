package io.rackfabric.loadtests.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.core.util.Separators.Spacing;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The one Jackson mapper of the result files ({@code result.json}, bench results, the ftgm events
 * file), configured once. Results are built as maps in insertion order and lists of plain values;
 * written, each key is on its own line, {@code "key": value}, two spaces a level, {@code {}} and
 * {@code []} when empty (docs/result-format.md).
 */
public final class Json {

  /** Objects and arrays one entry a line, two spaces a level, and "key": value. */
  private static final PrettyPrinter PRETTY = printer(false);

  /** Arrays one item a line, each object on one line: {"key": value, "key": value}. */
  public static final PrettyPrinter OBJECTS_ON_ONE_LINE = printer(true);

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .addModule(new SimpleModule("rackfabric-results")
          .addSerializer(Double.class, new FiniteDouble())
          .addSerializer(double.class, new FiniteDouble())
          .setSerializerModifier(new OtherValuesAsText()))
      // Reading: a file with anything after its document, or a record with a field missing, is not one.
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .build();

  private Json() {}

  /** The shared mapper, for a file with a layout of its own ({@link #OBJECTS_ON_ONE_LINE}). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** {@code value} as the text of a result file, with a final newline. */
  public static String write(Object value) {
    try {
      return MAPPER.writer(PRETTY).writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      // Maps, lists and plain values always serialize; this is a bug in what was passed.
      throw new UncheckedIOException("cannot write " + value.getClass().getName() + " as JSON", e);
    }
  }

  /** A JSON file as a tree; a file that is not JSON is refused with where it goes wrong. */
  public static JsonNode read(Path file) throws IOException {
    return read(file, JsonNode.class);
  }

  /** A JSON file whose document is an object, as a map in the file's key order. */
  public static Map<String, Object> readObject(Path file) throws IOException {
    try {
      return MAPPER.readValue(file.toFile(), new TypeReference<Map<String, Object>>() {});
    } catch (JsonProcessingException e) {
      throw new IOException(problem(e), e);
    }
  }

  /** A JSON file read into {@code type} (a record: its components by name). */
  public static <T> T read(Path file, Class<T> type) throws IOException {
    try {
      return MAPPER.readValue(file.toFile(), type);
    } catch (JsonProcessingException e) {
      throw new IOException(problem(e), e);
    }
  }

  /** What is wrong and where, without Jackson's description of its input source. */
  private static String problem(JsonProcessingException e) {
    String where = e.getLocation() == null ? ""
        : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    return e.getOriginalMessage().lines().findFirst().orElse("") + where;
  }

  private static PrettyPrinter printer(boolean objectsOnOneLine) {
    Separators separators = Separators.createDefaultInstance()
        .withObjectFieldValueSpacing(Spacing.AFTER)
        .withObjectEntrySpacing(objectsOnOneLine ? Spacing.AFTER : Spacing.NONE)
        .withArrayValueSpacing(Spacing.NONE)
        .withObjectEmptySeparator("")
        .withArrayEmptySeparator("");
    DefaultIndenter lines = new DefaultIndenter("  ", "\n");
    return new DefaultPrettyPrinter(separators)
        .withObjectIndenter(objectsOnOneLine ? new DefaultPrettyPrinter.NopIndenter() : lines)
        .withArrayIndenter(lines);
  }

  /** A figure that is not a number (NaN, infinite) is written null: JSON has no such numbers. */
  private static final class FiniteDouble extends StdSerializer<Double> {
    FiniteDouble() {
      super(Double.class);
    }

    @Override
    public void serialize(Double d, JsonGenerator g, SerializerProvider p) throws IOException {
      if (d.isNaN() || d.isInfinite()) {
        g.writeNull();
      } else {
        g.writeNumber(d); // Double.toString's digits: the value measured, not a rounding of it
      }
    }
  }

  /**
   * A value that is not a JSON one (a path, an enum constant, an address) is written as its text,
   * not taken apart as a bean: a result holds what a reader of it sees. A record is an object of its
   * components.
   */
  private static final class OtherValuesAsText extends BeanSerializerModifier {
    private static final List<Class<?>> JSON_VALUES = List.of(Map.class, Collection.class, CharSequence.class,
        Number.class, Boolean.class, JsonNode.class);

    @Override
    public JsonSerializer<?> modifySerializer(SerializationConfig config, BeanDescription description,
        JsonSerializer<?> serializer) {
      Class<?> type = description.getBeanClass();
      boolean json = type.isPrimitive() || type.isArray() || type.isRecord()
          || JSON_VALUES.stream().anyMatch(c -> c.isAssignableFrom(type));
      return json ? serializer : ToStringSerializer.instance;
    }
  }
}
