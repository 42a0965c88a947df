package io.rackfabric.cluster.cli;

import io.rackfabric.fabric.address.Addresses;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli's reading of a size or address flag ("32GiB", "0x1_0000_0000"), the way topology files
 * write them; a bad one is a usage error naming the flag and the value.
 */
public final class SizeConverter implements ITypeConverter<Long> {

  @Override
  public Long convert(String value) {
    try {
      return Addresses.parse(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
