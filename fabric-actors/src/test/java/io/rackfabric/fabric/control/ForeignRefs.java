package io.rackfabric.fabric.control;

import akka.actor.ActorPath;
import akka.actor.Address;
import akka.actor.RootActorPath;
import akka.actor.typed.ActorRef;
import java.lang.reflect.Proxy;

/**
 * A typed ref that names an actor on another cluster member, for tests in one JVM: its path
 * carries {@code address}; telling it anything does nothing. Only for a test kit that does not
 * serialize messages.
 */
public final class ForeignRefs {

  private ForeignRefs() {}

  @SuppressWarnings("unchecked")
  public static <T> ActorRef<T> at(Address address, String name) {
    ActorPath path = new RootActorPath(address, "/").$div("user").$div(name);
    return (ActorRef<T>) Proxy.newProxyInstance(ActorRef.class.getClassLoader(), new Class<?>[] {ActorRef.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "path" -> path;
          case "toString" -> "ForeignRef[" + path + "]";
          case "hashCode" -> path.hashCode();
          case "equals" -> proxy == args[0];
          case "compareTo" -> path.compareTo(((ActorRef<?>) args[0]).path());
          case "narrow", "unsafeUpcast" -> proxy;
          default -> null; // tell: nobody there
        });
  }
}
