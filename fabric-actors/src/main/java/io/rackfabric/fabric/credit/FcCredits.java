package io.rackfabric.fabric.credit;

import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * Header and data credits for each of the three flow-control classes. Used both for receive
 * buffer sizes and for the cumulative credit limits that InitFC and UpdateFC DLLPs carry.
 */
public record FcCredits(
    long postedHeader,
    long postedData,
    long nonPostedHeader,
    long nonPostedData,
    long completionHeader,
    long completionData)
    implements WireMessage {

  public FcCredits {
    if (postedHeader < 0 || postedData < 0 || nonPostedHeader < 0 || nonPostedData < 0
        || completionHeader < 0 || completionData < 0) {
      throw new IllegalArgumentException("credits must not be negative: posted " + postedHeader + "/"
          + postedData + ", non-posted " + nonPostedHeader + "/" + nonPostedData + ", completion "
          + completionHeader + "/" + completionData);
    }
  }

  public long header(TlpClass c) {
    return switch (c) {
      case POSTED -> postedHeader;
      case NON_POSTED -> nonPostedHeader;
      case COMPLETION -> completionHeader;
    };
  }

  public long data(TlpClass c) {
    return switch (c) {
      case POSTED -> postedData;
      case NON_POSTED -> nonPostedData;
      case COMPLETION -> completionData;
    };
  }

  static FcCredits of(long[] header, long[] data) {
    return new FcCredits(header[0], data[0], header[1], data[1], header[2], data[2]);
  }
}
