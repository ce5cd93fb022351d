package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;

import tsdump.gen.TxApps.Mode;
import tsdump.gen.TxApps.Step;

/**
 * The `transactions` scenario (issue #21's truth), the same workload against Kafka 3.9.1 (the 4.4.0 client runs
 * transaction version 1 there) and 4.4.0 (transaction version 2). Topics tx-in (3 partitions, 8 records each, written
 * by an idempotent producer) and tx-out (3 partitions). In order:
 *   rpw      rpw-0 / group rpw-g: read-process-write with sendOffsetsToTransaction, 5 transactions (commit, commit of
 *            tx-out-2 only, abort, the same input again committed, commit of tx-out-1 only)
 *   mixed    mixed-0 / group mixed-g: also consumer.commitSync of the same offsets before each transaction
 *   nooffs   nooffs-0 / group nooffs-g: transactions without offsets, commitSync after each, none after the last
 *   streams  Kafka Streams exactly_once_v2, application.id streams-eos, tx-in -> mapValues -> tx-out
 *   fence    fence-0: a second producer with the same id fences the first one's open transaction
 *   timeout  timeout-0 (transaction.timeout.ms 2000, with offsets of group timeout-g): aborted by the coordinator
 *   flink    ids orders-sink-<subtask>-<checkpoint> like Flink's KafkaSink: parallelism 3, checkpoints 1-2 committed,
 *            checkpoint 3 written and the job "fails"; restored with parallelism 2, subtasks 0 and 1 abort their
 *            ids of checkpoint 3 (initTransactions), probe checkpoint 4 (unused: epoch 0) and commit checkpoint 4;
 *            orders-sink-2-3 is left open (nobody owns subtask 2 any more)
 *   open     open-0 (with offsets of group open-g) left open: the JVM halts (Gen.main) without ending it
 * Prints {"event":"transactionLog", transactions, producerSessions} (TxLog) last.
 * args: COMMAND BOOTSTRAP SEED [GROUP_PROTOCOL of rpw-g: classic (default) | consumer]
 */
final class Transactions {
    static final String IN = "tx-in";
    static final String OUT = "tx-out";
    static final int PARTS = 3;
    static final int PER_PARTITION = 8;

    static void run(String bootstrap, String[] argv) throws Exception {
        String rpwProtocol = argv.length > 3 ? argv[3] : "classic";
        createTopics(bootstrap, List.of(topic(IN, PARTS), topic(OUT, PARTS)));
        TxLog log = newLog(bootstrap);
        try (KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true")) {
            for (int p = 0; p < PARTS; p++) {
                List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
                for (int i = 0; i < PER_PARTITION; i++) l.add(rec(IN, p, "k" + p + "-" + i, "order " + p + "/" + i));
                batch(idem, l);
            }
        }
        int all = PARTS * PER_PARTITION;
        TxApps.run(log, bootstrap, "rpw", "rpw-0", "rpw-g", rpwProtocol, Mode.OFFSETS_IN_TRANSACTION, IN, OUT, all, List.of(
            Step.commit(2, 2, 1), Step.commit(0, 0, 2), Step.abort(2, 1, 0), Step.commit(2, 1, 0), Step.commit(0, 1, 0)));
        TxApps.run(log, bootstrap, "mixed", "mixed-0", "mixed-g", "classic", Mode.MIXED, IN, OUT, all, List.of(
            Step.commit(1, 1, 1), Step.abort(1, 1, 0), Step.commit(1, 0, 1)));
        TxApps.run(log, bootstrap, "nooffs", "nooffs-0", "nooffs-g", "classic", Mode.NO_OFFSETS, IN, OUT, all, List.of(
            Step.commit(2, 0, 0), Step.commit(0, 2, 0), Step.commit(0, 0, 2)));
        streams(log, bootstrap, all);
        fence(log, bootstrap);
        timeout(log, bootstrap);
        flink(log, bootstrap);
        open(log, bootstrap);
        printLog(log);
        // open-0 and orders-sink-2-3 stay open: Gen.main halts the JVM without closing their producers
    }

    static TxLog newLog(String bootstrap) throws Exception {
        try (Admin a = admin(bootstrap)) {
            var d = a.describeTopics(List.of("__consumer_offsets", "__transaction_state")).allTopicNames().get();
            return new TxLog(d.get("__consumer_offsets").partitions().size(), d.get("__transaction_state").partitions().size());
        } catch (Exception e) {
            // the internal topics are created on first use: the broker's test settings (start.sh) have 3 each
            return new TxLog(3, 3);
        }
    }

    static void printLog(TxLog log) {
        Map<String, Object> m = Json.obj("event", "transactionLog");
        m.putAll(log.json());
        System.out.println(Json.write(m));
        System.out.flush();
    }

    static LoggedProducer txProducer(TxLog log, String app, String bootstrap, String id, int timeoutMs) {
        LoggedProducer p = LoggedProducer.create(log, app, bootstrap, id, timeoutMs);
        p.initTransactions();
        return p;
    }

    /** Kafka Streams exactly_once_v2: its producer (one per stream thread) is a LoggedProducer via the client supplier. */
    static void streams(TxLog log, String bootstrap, int inputRecords) throws Exception {
        Properties p = new Properties();
        p.put("application.id", "streams-eos");
        p.put("bootstrap.servers", bootstrap);
        p.put("processing.guarantee", "exactly_once_v2");
        p.put("num.stream.threads", "1");
        p.put("commit.interval.ms", "1000");
        p.put("default.key.serde", Serdes.ByteArray().getClass().getName());
        p.put("default.value.serde", Serdes.ByteArray().getClass().getName());
        java.nio.file.Path stateDir = Files.createTempDirectory("tsdump-streams-eos");
        p.put("state.dir", stateDir.toString());
        StreamsBuilder b = new StreamsBuilder();
        b.<byte[], byte[]>stream(IN)
            .mapValues(v -> ("streams: " + new String(v, StandardCharsets.UTF_8).toUpperCase()).getBytes(StandardCharsets.UTF_8))
            .to(OUT);
        KafkaClientSupplier supplier = new KafkaClientSupplier() {
            @Override
            public Admin getAdmin(Map<String, Object> config) {
                return Admin.create(config);
            }

            @Override
            public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
                return new LoggedProducer(log, "streams", config);
            }

            @Override
            public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
                return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            }

            @Override
            public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
                return getConsumer(config);
            }

            @Override
            public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
                return getConsumer(config);
            }
        };
        KafkaStreams s = new KafkaStreams(b.build(), p, supplier);
        s.start();
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        for (;;) {
            long committed = 0;
            for (TxLog.Tx t : log.transactions()) if (t.app.equals("streams") && t.outcome().equals("committed")) committed += t.records();
            if (committed >= inputRecords) break;
            if (System.nanoTime() > end) throw new IllegalStateException("streams-eos committed " + committed + " of " + inputRecords + " records");
            Thread.sleep(200);
        }
        s.close(Duration.ofSeconds(30));
        s.cleanUp();
        // the temp dir itself (Gen.main halts the JVM: no deleteOnExit)
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** fence-0 #1 writes tx-out-1 and -2; #2 (same id) initTransactions: the coordinator aborts #1's transaction. */
    static void fence(TxLog log, String bootstrap) throws Exception {
        LoggedProducer f1 = txProducer(log, "fence", bootstrap, "fence-0", 60000);
        f1.beginTransaction();
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>(TxApps.recs(OUT, 1, "fenced", 2));
        l.addAll(TxApps.recs(OUT, 2, "fenced", 1));
        batch(f1, l);
        LoggedProducer f2 = txProducer(log, "fence", bootstrap, "fence-0", 60000);
        f1.last().end("fenced", System.currentTimeMillis());
        f1.last().note("a second producer with the same transactional id called initTransactions: the coordinator aborted this transaction");
        TxApps.commitMustFail(f1, "fence-0 #1 (fenced)");
        f1.close(Duration.ofSeconds(5));
        f2.beginTransaction();
        batch(f2, TxApps.recs(OUT, 1, "fence-winner", 1));
        f2.commitTransaction();
        f2.close();
    }

    /** timeout-0 (transaction.timeout.ms 2000) writes tx-out-0 and offsets of group timeout-g, then waits. */
    static void timeout(TxLog log, String bootstrap) throws Exception {
        LoggedProducer t = txProducer(log, "timeout", bootstrap, "timeout-0", 2000);
        t.beginTransaction();
        batch(t, TxApps.recs(OUT, 0, "timeout", 2));
        t.sendOffsetsToTransaction(Map.of(new TopicPartition(IN, 0), new OffsetAndMetadata(1, "timeout")), new ConsumerGroupMetadata("timeout-g"));
        waitTxnState(bootstrap, "timeout-0", "COMPLETE_ABORT", Duration.ofSeconds(60));
        t.last().end("timed-out", System.currentTimeMillis());
        t.last().note("aborted by the coordinator after transaction.timeout.ms 2000");
        TxApps.commitMustFail(t, "timeout-0 (timed out)");
        t.close(Duration.ofSeconds(5));
    }

    static final String FLINK_PREFIX = "orders-sink";

    static LoggedProducer flinkTxn(TxLog log, String bootstrap, int subtask, long checkpoint) {
        LoggedProducer p = txProducer(log, "flink", bootstrap, FLINK_PREFIX + "-" + subtask + "-" + checkpoint, 600000);
        p.beginTransaction();
        return p;
    }

    /**
     * Flink KafkaSink's exactly-once writer, by its id shape and order of calls: a transaction per subtask and
     * checkpoint (TransactionalIdFactory.buildTransactionalId: prefix-subtaskId-checkpointId); at a checkpoint each
     * subtask flushes, opens the next checkpoint's transaction and then commits the previous one.
     */
    static void flink(TxLog log, String bootstrap) throws Exception {
        int parallelism = 3;
        LoggedProducer[] cur = new LoggedProducer[parallelism];
        for (int s = 0; s < parallelism; s++) cur[s] = flinkTxn(log, bootstrap, s, 1);
        for (long ckpt = 1; ckpt <= 3; ckpt++) {
            for (int s = 0; s < parallelism; s++) batch(cur[s], TxApps.recs(OUT, s, "flink " + s + "/" + ckpt, 2));
            if (ckpt == 3) break; // the job fails before checkpoint 3
            cur = checkpoint(log, bootstrap, cur, ckpt + 1);
        }
        // restore from checkpoint 2 with parallelism 2: each subtask aborts its own lingering id (initTransactions on
        // it fences the dead producer and makes the coordinator abort its transaction) and probes the next id
        // (epoch 0: never used, stop); subtask 2 is gone and nobody aborts orders-sink-2-3
        parallelism = 2;
        LoggedProducer[] restored = new LoggedProducer[parallelism];
        for (int s = 0; s < parallelism; s++) {
            LoggedProducer aborter = txProducer(log, "flink", bootstrap, FLINK_PREFIX + "-" + s + "-3", 600000);
            cur[s].last().end("fenced", System.currentTimeMillis());
            cur[s].last().note("the restored job's initTransactions on this id aborted it");
            aborter.close();
            LoggedProducer probe = txProducer(log, "flink", bootstrap, FLINK_PREFIX + "-" + s + "-4", 600000);
            probe.close();
            restored[s] = flinkTxn(log, bootstrap, s, 4);
        }
        cur[2].last().note("left open: the restored job (parallelism 2) has no subtask 2");
        for (int s = 0; s < parallelism; s++) batch(restored[s], TxApps.recs(OUT, s, "flink " + s + "/4", 2));
        checkpoint(log, bootstrap, restored, -1);
    }

    /** A checkpoint: every subtask flushes, opens the next checkpoint's transaction (unless next < 0), commits. */
    static LoggedProducer[] checkpoint(TxLog log, String bootstrap, LoggedProducer[] cur, long next) {
        LoggedProducer[] out = new LoggedProducer[cur.length];
        for (int s = 0; s < cur.length; s++) {
            cur[s].flush();
            if (next >= 0) out[s] = flinkTxn(log, bootstrap, s, next);
        }
        for (LoggedProducer p : cur) {
            p.commitTransaction();
            p.close();
        }
        return out;
    }

    /** open-0 (transaction.timeout.ms 600000) writes tx-out-1 and offsets of group open-g; never ended. */
    static void open(TxLog log, String bootstrap) throws Exception {
        LoggedProducer o = txProducer(log, "open", bootstrap, "open-0", 600000);
        o.beginTransaction();
        batch(o, TxApps.recs(OUT, 1, "open", 2));
        o.sendOffsetsToTransaction(Map.of(new TopicPartition(IN, 1), new OffsetAndMetadata(5, "open")), new ConsumerGroupMetadata("open-g"));
        o.last().note("left open: the JVM halts without commit or abort");
    }

    private Transactions() { }
}
