package io.rackfabric.host.lending;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.device.HotRemoved;
import io.rackfabric.host.device.WindowsMoved;
import io.rackfabric.host.device.disk.DiskDriver;
import io.rackfabric.host.device.gpu.GpuDriver;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.persistence.controller.Controller;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A borrower's loan following its host's link fail-over (Device Lending across a Ladon rack;
 * Ladon section 5.3): when the borrower's route list moves the lender to the other plane (its own
 * link failed, and the MH's notification reached it through the other plane), the loan's windows
 * move to that plane's NTB mapping. The borrower's driver of the device is told the new windows
 * (a GPU driver rings the copy in flight again through them, {@link GpuDriver.MoveWindows}; a disk
 * driver resets its disk through them and submits the read in flight again, {@link
 * DiskDriver.MoveWindows}), and
 * the borrower's control-plane driver asks the controller to record the loan's new DMA window ({@link
 * Controller.MoveLoanWindow}), both at the route change's model time: the host holds its endpoint
 * there until this follower answered ({@link ComputeHost.FollowRoutes}). The windows per plane are
 * given (cluster-config's {@code LoanFailover} finds them in the topology); this actor only
 * carries the change.
 *
 * <p>It also follows the loan's end by the controller ({@link ControlPlaneClient.LoanEnd}: the
 * lender was removed from the rack, and the master told the borrower's control-plane driver, which
 * hot-removed the device at its root): the device's driver is told it was hot-removed at the
 * notice's model time ({@link Driver#hotRemove}), a surprise removal with the work in flight lost, and
 * the borrower's driver holds its endpoint there until this follower answered.
 */
public final class LoanFollower extends AbstractBehavior<LoanFollower.Command> {

  public sealed interface Command permits RouteChanged, DriverMoved, RequestQueued, Answered, LoanEnded, DriverRemoved,
      GetMoves {}

  /**
   * Where the loan is when the borrower reaches the lender through one plane: the shifts of the
   * device's registers (BAR0 on the borrower's side) and of its DMA addresses from the driver's plan,
   * and the DMA window the controller records.
   */
  public record PlaneWindows(long registersShift, long dmaShift, long windowBase, long windowSize, long windowTarget) {}

  /**
   * One move of the loan: to {@code plane} at model {@code at}; what the driver did ({@code
   * driverRungAgain} the work in flight it issued again, "" when none; {@code driverError} why it
   * could not follow); the controller's
   * answer ({@code status} null until it came) at {@code decidedAt}, with its {@code detail}.
   */
  public record LoanMove(Plane plane, long at, PlaneWindows windows, String driverRungAgain, String driverError,
      Controller.Status status, long decidedAt, String detail) {}

  /**
   * The controller ended the loan at model {@code endedAt} for {@code reason} (its lender was
   * removed) and the borrower heard it at {@code noticedAt}: the device was hot-removed then, and
   * its driver declared a surprise removal at {@code removedAt} ({@link HotRemoved#NONE} when its
   * plan was over already; the driver's own result says what was lost).
   */
  public record LoanEnd(long endedAt, long noticedAt, String reason, long removedAt) {}

  /**
   * The lent device's driver as the follower reaches it: told when the loan's windows move and
   * when the device is hot-removed. {@link #gpu} and {@link #disk} make one for each driver.
   */
  public interface Driver {

    /**
     * The loan's windows moved at model {@code at}: the device's registers are {@code
     * registersShift} and its DMA addresses {@code dmaShift} from the driver's plan's from then on;
     * the driver answers {@code replyTo} once it rang what it had to (or says why it could not).
     */
    void moveWindows(long registersShift, long dmaShift, long at, ActorRef<WindowsMoved> replyTo);

    /** The device was hot-removed at model {@code at} for {@code reason}; the driver answers {@code replyTo}. */
    void hotRemove(long at, String reason, ActorRef<HotRemoved> replyTo);
  }

  /** A GPU driver: it follows both (it rings the copy in flight again through the moved windows). */
  public static Driver gpu(ActorRef<GpuDriver.Command> driver) {
    return new Driver() {
      @Override
      public void moveWindows(long registersShift, long dmaShift, long at, ActorRef<WindowsMoved> replyTo) {
        driver.tell(new GpuDriver.MoveWindows(registersShift, dmaShift, at, replyTo));
      }

      @Override
      public void hotRemove(long at, String reason, ActorRef<HotRemoved> replyTo) {
        driver.tell(new GpuDriver.HotRemove(at, reason, replyTo));
      }
    };
  }

  /**
   * A disk driver: it follows both (it resets the disk through the moved windows, sets its queue
   * pair up on the new addresses and submits the read in flight again).
   */
  public static Driver disk(ActorRef<DiskDriver.Command> driver) {
    return new Driver() {
      @Override
      public void moveWindows(long registersShift, long dmaShift, long at, ActorRef<WindowsMoved> replyTo) {
        driver.tell(new DiskDriver.MoveWindows(registersShift, dmaShift, at, replyTo));
      }

      @Override
      public void hotRemove(long at, String reason, ActorRef<HotRemoved> replyTo) {
        driver.tell(new DiskDriver.HotRemove(at, reason, replyTo));
      }
    };
  }

  /** The moves so far, in order, and the loan's end (null while it lasts). */
  public record Moves(String device, String borrower, List<LoanMove> moves, LoanEnd end)
      implements NoSerializationVerificationNeeded {
    public Moves {
      moves = List.copyOf(moves);
    }
  }

  public record GetMoves(ActorRef<Moves> replyTo) implements Command, NoSerializationVerificationNeeded {}

  private record RouteChanged(ComputeHost.RouteChanged change) implements Command, NoSerializationVerificationNeeded {}

  private record DriverMoved(WindowsMoved moved) implements Command, NoSerializationVerificationNeeded {}

  private record RequestQueued(ControlPlaneClient.PagesDone records) implements Command,
      NoSerializationVerificationNeeded {}

  private record Answered(Controller.OperationResult result) implements Command,
      NoSerializationVerificationNeeded {}

  private record LoanEnded(ControlPlaneClient.LoanEnd end) implements Command, NoSerializationVerificationNeeded {}

  private record DriverRemoved(ControlPlaneClient.LoanEnd end, HotRemoved removed) implements Command,
      NoSerializationVerificationNeeded {}

  private final String device;
  private final String borrower;
  private final int lender;
  private final Map<Plane, PlaneWindows> windows;
  private final ActorRef<ComputeHost.Command> host;
  private final Driver driver;
  private final ActorRef<ControlPlaneClient.Command> client;
  private final ActorRef<WindowsMoved> driverReplies;
  private final ActorRef<ControlPlaneClient.PagesDone> queued;
  private final ActorRef<Controller.OperationResult> answers;
  private final List<LoanMove> moves = new ArrayList<>();
  /**
   * The moves whose record the controller has not answered yet, oldest first: the driver sends
   * one request at a time and answers each once, in order. (One adapter for every move: Akka keeps
   * only the last adapter made for a message class, so one per move would credit an earlier
   * move's answer to a later one.)
   */
  private final Deque<Integer> unanswered = new ArrayDeque<>();
  private Plane plane = Plane.PRIMARY;
  private LoanEnd end;

  /**
   * Follows {@code host}'s route changes toward the lender.
   *
   * @param lender the lender's number in the global memory (i for CH i), the target whose route counts
   * @param windows the loan's windows for each plane the borrower may reach the lender through
   * @param client the borrower's control-plane driver, or null where the rack keeps no loans
   */
  public static Behavior<Command> create(String device, String borrower, int lender, Map<Plane, PlaneWindows> windows,
      ActorRef<ComputeHost.Command> host, Driver driver, ActorRef<ControlPlaneClient.Command> client) {
    if (!windows.containsKey(Plane.PRIMARY) || !windows.containsKey(Plane.SECONDARY)) {
      throw new IllegalArgumentException("windows=" + windows.keySet() + " must name both planes");
    }
    return Behaviors.setup(ctx -> new LoanFollower(ctx, device, borrower, lender, windows, host, driver, client));
  }

  private LoanFollower(ActorContext<Command> context, String device, String borrower, int lender,
      Map<Plane, PlaneWindows> windows, ActorRef<ComputeHost.Command> host, Driver driver,
      ActorRef<ControlPlaneClient.Command> client) {
    super(context);
    this.device = device;
    this.borrower = borrower;
    this.lender = lender;
    this.windows = new EnumMap<>(windows);
    this.host = host;
    this.driver = driver;
    this.client = client;
    this.driverReplies = context.messageAdapter(WindowsMoved.class, DriverMoved::new);
    this.queued = context.messageAdapter(ControlPlaneClient.PagesDone.class, RequestQueued::new);
    this.answers = context.messageAdapter(Controller.OperationResult.class, Answered::new);
    host.tell(new ComputeHost.FollowRoutes(context.messageAdapter(ComputeHost.RouteChanged.class, RouteChanged::new),
        context.getSelf()));
    if (client != null) {
      client.tell(new ControlPlaneClient.FollowLoans(context.messageAdapter(ControlPlaneClient.LoanEnd.class,
          LoanEnded::new)));
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(RouteChanged.class, this::onRouteChanged)
        .onMessage(DriverMoved.class, this::onDriverMoved)
        .onMessage(RequestQueued.class, this::onRequestQueued)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(LoanEnded.class, this::onLoanEnded)
        .onMessage(DriverRemoved.class, this::onDriverRemoved)
        .onMessage(GetMoves.class, this::onGetMoves)
        .build();
  }

  private Behavior<Command> onRouteChanged(RouteChanged msg) {
    ComputeHost.RouteChanged c = msg.change();
    if (c.target() != lender || c.plane() == plane) {
      host.tell(new ComputeHost.RouteFollowed(getContext().getSelf()));
      return this;
    }
    plane = c.plane();
    PlaneWindows w = windows.get(plane);
    moves.add(new LoanMove(plane, c.modelAt(), w, "", "", null, -1, ""));
    getContext().getLog().info("Loan of [{}] to [{}] moves to the {} plane at {} ns: DMA window 0x{}", device, borrower,
        plane.ntb(), c.modelAt(), Long.toHexString(w.windowBase()));
    driver.moveWindows(w.registersShift(), w.dmaShift(), c.modelAt(), driverReplies);
    return this;
  }

  /** The driver rang what it had to at the change's time; then the controller is asked to record the move. */
  private Behavior<Command> onDriverMoved(DriverMoved msg) {
    int index = moves.size() - 1;
    LoanMove m = moves.get(index);
    moves.set(index, new LoanMove(m.plane(), m.at(), m.windows(), msg.moved().rungAgain(), msg.moved().error(), null, -1,
        ""));
    if (client == null) {
      host.tell(new ComputeHost.RouteFollowed(getContext().getSelf()));
      return this;
    }
    unanswered.add(index);
    PlaneWindows w = m.windows();
    client.tell(new ControlPlaneClient.Issue(new Controller.MoveLoanWindow(device, borrower, w.windowBase(),
        w.windowSize(), w.windowTarget(), m.at(), answers)));
    // Answered after the request's wake is at the endpoint: it enters the model at the change's time.
    client.tell(new ControlPlaneClient.GetRequests(queued));
    return this;
  }

  private Behavior<Command> onRequestQueued(RequestQueued msg) {
    host.tell(new ComputeHost.RouteFollowed(getContext().getSelf()));
    return this;
  }

  private Behavior<Command> onAnswered(Answered msg) {
    Integer index = unanswered.poll();
    if (index == null) {
      getContext().getLog().warn("Loan of [{}] to [{}]: an answer {} with no window move waiting for one", device,
          borrower, msg.result().status());
      return this;
    }
    LoanMove m = moves.get(index);
    Controller.OperationResult r = msg.result();
    moves.set(index, new LoanMove(m.plane(), m.at(), m.windows(), m.driverRungAgain(), m.driverError(), r.status(),
        r.at(), r.detail() == null ? "" : r.detail()));
    getContext().getLog().info("Loan of [{}] to [{}]: the controller answered the window move {} at {} ns", device,
        borrower, r.status(), r.at());
    return this;
  }

  /**
   * The controller ended a loan of the borrower's (Device Lending's surprise removal): when it is
   * this one, the driver is told the device was hot-removed at the notice's model time; the borrower's
   * driver holds its endpoint there until this follower answered.
   */
  private Behavior<Command> onLoanEnded(LoanEnded msg) {
    ControlPlaneClient.LoanEnd e = msg.end();
    if (!e.ended().device().equals(device) || !e.ended().borrower().equals(borrower) || end != null) {
      e.replyTo().tell(new ControlPlaneClient.LoanEndHandled(e.ended().device()));
      return this;
    }
    getContext().getLog().warn("Loan of [{}] to [{}] ended by the controller at {} ns ({}): hot-removed at {} ns",
        device, borrower, e.ended().at(), e.ended().reason(), e.noticedAt());
    driver.hotRemove(e.noticedAt(), "hot-removed: the controller ended the loan (" + e.ended().reason() + ")",
        getContext().messageAdapter(HotRemoved.class, removed -> new DriverRemoved(e, removed)));
    return this;
  }

  private Behavior<Command> onDriverRemoved(DriverRemoved msg) {
    ControlPlaneClient.LoanEnd e = msg.end();
    end = new LoanEnd(e.ended().at(), e.noticedAt(), e.ended().reason(), msg.removed().removedAt());
    e.replyTo().tell(new ControlPlaneClient.LoanEndHandled(device));
    return this;
  }

  private Behavior<Command> onGetMoves(GetMoves msg) {
    msg.replyTo().tell(new Moves(device, borrower, moves, end));
    return this;
  }
}
