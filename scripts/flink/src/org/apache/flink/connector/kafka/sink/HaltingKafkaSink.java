package org.apache.flink.connector.kafka.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A KafkaSink that halts the JVM inside its committer (tsdump's Flink fixture, scripts/flink): every call is passed
 * to the real KafkaSink, except that each subtask's committer, on its Nth commit call (one call per completed
 * checkpoint: CommitterOperator.notifyCheckpointComplete), waits there without committing; when all subtasks wait
 * (or after 5 s), the JVM halts. The checkpoint is complete and retained, its transactions pre-committed and never
 * committed: what a TaskManager lost between the checkpoint's completion and the commit leaves behind.
 * With dropSubtask >= 0, that subtask's committer skips the commit of its dropOnCall-th call and reports nothing:
 * Flink counts the transaction committed, the broker keeps it open, and the writer never hears that it finished
 * (the backchannel message KafkaCommitter sends after a commit), so it stays among the writer's pre-committed ids.
 * It lives in the connector's package because KafkaSink's writer type is package-private.
 */
public final class HaltingKafkaSink<IN>
        implements TwoPhaseCommittingStatefulSink<IN, KafkaWriterState, KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable> {
    private static final long serialVersionUID = 1L;
    private static final ConcurrentHashMap<Integer, AtomicInteger> CALLS = new ConcurrentHashMap<>();
    private static final AtomicInteger WAITING = new AtomicInteger();

    private final KafkaSink<IN> delegate;
    private final int haltOnCall;
    private final int parallelism;
    private final int dropSubtask;
    private final int dropOnCall;

    /** haltOnCall 0: never halt; dropSubtask -1: never drop a commit. */
    public HaltingKafkaSink(KafkaSink<IN> delegate, int haltOnCall, int parallelism, int dropSubtask, int dropOnCall) {
        this.delegate = delegate;
        this.haltOnCall = haltOnCall;
        this.parallelism = parallelism;
        this.dropSubtask = dropSubtask;
        this.dropOnCall = dropOnCall;
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> createWriter(WriterInitContext context) throws IOException {
        return delegate.createWriter(context);
    }

    @Override
    public PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState) throws IOException {
        return delegate.restoreWriter(context, recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return delegate.getWriterStateSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return delegate.getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committer) {
        delegate.addPostCommitTopology(committer);
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) throws IOException {
        Committer<KafkaCommittable> real = delegate.createCommitter(context);
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        int attempt = context.getTaskInfo().getAttemptNumber();
        return new Committer<>() {
            @Override
            public void commit(Collection<CommitRequest<KafkaCommittable>> requests) throws IOException, InterruptedException {
                List<String> ids = new ArrayList<>();
                for (CommitRequest<KafkaCommittable> r : requests) {
                    KafkaCommittable c = r.getCommittable();
                    ids.add(c.getTransactionalId() + "@" + c.getProducerId() + "/" + c.getEpoch());
                }
                int call = CALLS.computeIfAbsent(subtask, k -> new AtomicInteger()).incrementAndGet();
                if (haltOnCall > 0 && call >= haltOnCall) {
                    event("commit-held", subtask, attempt, call, ids);
                    if (WAITING.incrementAndGet() >= parallelism) halt();
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (System.nanoTime() < until) Thread.sleep(50);
                    halt();
                }
                if (subtask == dropSubtask && call == dropOnCall) {
                    event("commit-dropped", subtask, attempt, call, ids);
                    return;
                }
                event("commit", subtask, attempt, call, ids);
                real.commit(requests);
            }

            @Override
            public void close() throws Exception {
                real.close();
            }
        };
    }

    private static synchronized void event(String what, int subtask, int attempt, int call, List<String> ids) {
        StringBuilder b = new StringBuilder();
        b.append("{\"event\":\"").append(what).append("\",\"at\":").append(System.currentTimeMillis())
            .append(",\"subtask\":").append(subtask).append(",\"attempt\":").append(attempt)
            .append(",\"call\":").append(call).append(",\"committables\":[");
        for (int i = 0; i < ids.size(); i++) b.append(i == 0 ? "" : ",").append('"').append(ids.get(i)).append('"');
        System.out.println(b.append("]}"));
        System.out.flush();
    }

    private static synchronized void halt() {
        System.out.println("{\"event\":\"halt\",\"at\":" + System.currentTimeMillis() + "}");
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(3);
    }
}
