package io.rackfabric.persistence.wire;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The schema version of a journaled record, written into its manifest. Raise it whenever a
 * component is added or removed; without the annotation a record is at version 1. Bytes of an
 * older version are still read (missing components get their default); bytes of a newer version
 * than the running code knows are refused, since they may carry meaning this code would drop.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SchemaVersion {
  int value();
}
