package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperationsTest {

  /** A record of {@code type} with every component at its default (the request wraps a lending one). */
  private static Operation sample(Class<?> type) throws ReflectiveOperationException {
    if (type == Controller.Request.class) {
      return new Controller.Request("ch1-driver", 1, (Operation) sample(Controller.BorrowDevice.class));
    }
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      values[i] = types[i] == long.class ? 7L : types[i] == int.class ? 1 : types[i] == boolean.class ? false
          : types[i] == List.class ? List.of() : types[i] == String.class ? "x" : null;
    }
    Constructor<?> c = type.getDeclaredConstructor(types);
    return (Operation) c.newInstance(values);
  }

  @Test
  void shouldRestampEveryOperationWhenTheHostServesIt() throws ReflectiveOperationException {
    Class<?>[] operations = Operation.class.getPermittedSubclasses();
    assertTrue(operations.length >= 19, "operations: " + operations.length);
    for (Class<?> type : operations) {
      Operation op = sample(type);
      Operation stamped = Operations.restamp(op, 12_345, null);
      assertEquals(type, stamped.getClass(), type.getSimpleName());
      assertEquals(12_345, stamped.at(), type.getSimpleName());
    }
  }
}
