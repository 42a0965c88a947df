package io.rackfabric.fabric.testing;

import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.List;

/** The owner of a link end a test drives by hand: keeps the frames sent, ignores the rest. */
public class RecordingLinkListener implements LinkEnd.Listener {

  public final List<LinkFrame> sent = new ArrayList<>();

  @Override
  public void send(LinkFrame frame) {
    sent.add(frame);
  }

  @Override
  public void transmitted(Object token, Tlp tlp, long sentAt) {}

  @Override
  public void linkUp(long modelAt) {}

  @Override
  public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {}
}
