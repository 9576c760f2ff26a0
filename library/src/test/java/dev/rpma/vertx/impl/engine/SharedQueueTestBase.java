package dev.rpma.vertx.impl.engine;

import io.vertx.core.Future;
import io.vertx.core.internal.PromiseInternal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link SharedQueueEngine} on a real Vert.x context over {@link FakeSharedQueue} and
 * {@link FakeLoopIo}, with connections as the engine sees them: what the shared queue's host
 * tests start from. It reports to {@code metrics} (none unless a test sets a recorder).
 */
abstract class SharedQueueTestBase extends EngineTestBase {

  /** What a member's receive completes with in these tests. */
  record Message(TestMember from, int bytes, boolean hasImm, int imm) {
  }

  /** A connection attached to the queue, as the engine sees one. */
  static final class TestMember implements SharedQueueMember {
    final String name;
    final List<Throwable> errors = new ArrayList<>();

    TestMember(String name) {
      this.name = name;
    }

    @Override
    public Object received(int byteLength, boolean hasImm, int imm) {
      return new Message(this, byteLength, hasImm, imm);
    }

    @Override
    public void onReceiveError(int status, Throwable error) {
      errors.add(error);
    }

    @Override
    public String description() {
      return name;
    }
  }

  FakeSharedQueue srq;
  SharedQueueEngine queue;

  @BeforeEach
  void makeQueue() {
    srq = new FakeSharedQueue(log);
  }

  /** A started queue of {@code rqSize} receives and a receive CQ of {@code rcqSize}. */
  void start(int rqSize, int rcqSize) {
    queue = onLoop(() -> new SharedQueueEngine(context, "test queue", io, SYNC_SETUP, rqSize,
        rcqSize, 2, 4, metrics));
    await(onLoop(() -> queue.start(srq)));
  }

  Future<Message> queueRecv() {
    return onLoop(() -> {
      PromiseInternal<Message> p = context.promise();
      queue.submit(local.held(), 0, 64, p);
      return p.future();
    });
  }

  /** Attaches an established connection (its messages are delivered at once). */
  void attach(int qp, TestMember member) {
    onLoop(() -> {
      queue.attach(qp, member);
      queue.usable(member);
      return null;
    });
  }

  /** Attaches a connection whose accept has not completed: its messages wait for it. */
  void attachNotUsableYet(int qp, TestMember member) {
    onLoop(() -> {
      queue.attach(qp, member);
      return null;
    });
  }

  void detach(int qp, TestMember member) {
    onLoop(() -> {
      queue.detach(qp, member);
      return null;
    });
  }

  void rcqReady() {
    onLoop(() -> io.fire(FakeSharedQueue.RCQ_FD));
  }
}
