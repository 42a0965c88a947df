package io.rackfabric.host.device;

/**
 * A move of a lent device's windows as its driver applied it at model {@link #at}: the device's
 * registers {@link #registersShift} and its DMA addresses {@link #dmaShift} from the driver's plan's
 * from then on. Each driver's own record adds what it issued again.
 */
public interface WindowShift {

  long at();

  long registersShift();

  long dmaShift();
}
