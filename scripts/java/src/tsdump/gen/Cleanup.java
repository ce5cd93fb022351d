package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The workload of the `cleanup` fixture (scripts/fixtures/v44/cleanup.mjs, issue #22): what Kafka's log cleaner and
 * retention do, from a log dir copied before they ran. Three broker runs on the same log dir:
 *
 *   run 1 (cleaner on, retention off)  `cleanup-1`: topic cu-compact, first writes, then the script waits for the
 *                                      cleaner's first pass (tombstones and markers get their delete horizon, KIP-534)
 *   run 2 (log.cleaner.enable=false)   `cleanup-2`: more writes to cu-compact, the other topics, the internal topics'
 *                                      segment.ms, a transaction left open (data in cu-lso + an offset commit in
 *                                      __consumer_offsets) by halting the JVM. The script then copies before/.
 *   run 3 (cleaner on, retention on)   nothing is written; the script waits for the cleaner and retention, copies after/.
 *
 * Segments: Kafka 4.x refuses segment.bytes under 1 MiB, so they roll on segment.ms. A roll is decided by record
 * timestamps (LogSegment.shouldRoll: the new batch's max timestamp minus the segment's first batch timestamp), so
 *  - topics without transactions (cu-lag, cu-del-*) get explicit CreateTime timestamps hours in the past, one
 *    timestamp step per segment: deterministic rolls, and their retention / min.compaction.lag are decided without
 *    waiting;
 *  - topics with transactions (cu-compact, cu-lso, internal topics) use the wall clock (a marker's timestamp is the
 *    broker's clock, which would roll a segment of old timestamps), segment.ms 1500 and pauses of 1.7 s.
 * Prints one JSON event per line (Gen.event); "segment" events say which batch was meant to start a segment.
 */
final class Cleanup {
    static final String COMPACT = "cu-compact";
    static final String LSO = "cu-lso";
    static final String LAG = "cu-lag";
    static final String DEL_TIME = "cu-del-time";
    static final String DEL_SIZE = "cu-del-size";
    static final long ROLL_PAUSE_MS = 1700; // > segment.ms 1500 of the wall-clock topics
    static final long HOUR = 3_600_000L;
    static final long MIN = 60_000L;

    // ------------------------------------------------------------------ run 1

    static void run1(String bootstrap, long seed) throws Exception {
        createTopics(bootstrap, List.of(topic(COMPACT, 1, "cleanup.policy", "compact", "segment.ms", "1500",
            "min.cleanable.dirty.ratio", "0.01", "delete.retention.ms", "20000")));
        try (KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false");
             KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
             KafkaProducer<byte[], byte[]> tx = producer(bootstrap, "transactional.id", "cu-tx-1", "transaction.timeout.ms", "60000")) {
            tx.initTransactions();
            // segment 0
            send(plain, COMPACT, 0, "1", kv("k0", "r1-v1", "k1", "r1-v1", "k2", "r1-v1", "k3", "r1-v1", "k4", "r1-v1",
                "k5", "r1-v1", "k6", "r1-v1", "k7", "r1-v1", "k8", "r1-v1", "k9", "r1-v1"));
            send(plain, COMPACT, 0, "1", kv("k0", "r1-v2", "k1", "r1-v2", "k2", "r1-v2"));
            send(plain, COMPACT, 0, "1", kv("k3", null, "k7", null));
            txn(tx, true, COMPACT, 0, "1", kv("k1", "r1-v3-tx", "k2", "r1-v3-tx"));
            txn(tx, false, COMPACT, 0, "1", kv("k4", "r1-aborted", "k5", "r1-aborted", "k9", null));
            send(idem, COMPACT, 0, "1", kv("k8", "r1-v3-idem"));
            send(idem, COMPACT, 0, "1", kv("k8", "r1-v4-idem"));
            // segment 1
            Thread.sleep(ROLL_PAUSE_MS);
            send(plain, COMPACT, 0, "1", kv("k6", "r1-v2"));
            send(plain, COMPACT, 0, "1", kv("k0", null));
            txn(tx, true, COMPACT, 0, "1", kv("k2", null, "k5", "r1-v2-tx"));
            // segment 2 (the active one while run 1's cleaner works)
            Thread.sleep(ROLL_PAUSE_MS);
            send(plain, COMPACT, 0, "1", kv("f0", "r1-roll"));
        }
    }

    // ------------------------------------------------------------------ run 2

    static void run2(String bootstrap, long seed) throws Exception {
        long now = System.currentTimeMillis();
        event("clock", "workloadStartMs", now);
        createTopics(bootstrap, List.of(
            topic(LSO, 1, "cleanup.policy", "compact", "segment.ms", "1500", "min.cleanable.dirty.ratio", "0.01"),
            topic(LAG, 1, "cleanup.policy", "compact", "segment.ms", "60000", "min.compaction.lag.ms", String.valueOf(HOUR),
                "min.cleanable.dirty.ratio", "0.01"),
            topic(DEL_TIME, 2, "cleanup.policy", "delete", "segment.ms", "60000", "retention.ms", String.valueOf(HOUR)),
            topic(DEL_SIZE, 1, "cleanup.policy", "delete", "segment.ms", "60000", "retention.ms", "-1", "retention.bytes", "1000")));

        String groupA = groupOn("cu-group-a", 0);
        String groupB = groupOn("cu-group-b", 0);
        String groupOpen = groupOn("cu-group-open", 0);
        event("groups", "partition", 0, "plain", List.of(groupA, groupB), "transactional", groupOpen);
        try (Admin admin = admin(bootstrap)) {
            // creates __consumer_offsets (FindCoordinator), then small segments for both internal topics; the
            // coordinators' own topic configs (cleanup.policy, segment.bytes, ...) are in the metadata log too
            commit(admin, groupA, COMPACT, 1);
            for (String t : List.of("__consumer_offsets", "__transaction_state")) {
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, t),
                    List.of(new AlterConfigOp(new ConfigEntry("segment.ms", "1500"), AlterConfigOp.OpType.SET)))).all().get();
                event("alter-config", "topic", t, "segment.ms", 1500);
            }
            try (KafkaProducer<byte[], byte[]> warm = producer(bootstrap, "transactional.id", "cu-tx-1", "transaction.timeout.ms", "60000")) {
                // cu-tx-1's records of run 1 are far older than segment.ms: this one rolls its __transaction_state
                // partition, so run 3 has a segment to clean there
                warm.initTransactions();
            }
            Thread.sleep(ROLL_PAUSE_MS);

            try (KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false");
                 KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
                 KafkaProducer<byte[], byte[]> tx = producer(bootstrap, "transactional.id", "cu-tx-2", "transaction.timeout.ms", "60000")) {
                tx.initTransactions();
                // cu-compact: dirty section after run 1's clean (its active segment 2 is now dirty too)
                send(plain, COMPACT, 0, "2", kv("k1", "r2-v5", "k5", "r2-v5"));
                send(plain, COMPACT, 0, "2", kv("k6", null));
                txn(tx, true, COMPACT, 0, "2", kv("k3", "r2-v5-tx"));
                txn(tx, false, COMPACT, 0, "2", kv("k1", "r2-aborted", "k7", "r2-aborted"));
                send(idem, COMPACT, 0, "2", kv("k8", "r2-v5-idem"));
                // cu-lso segment 0; __consumer_offsets-0 segment 1 begins with group B's commit
                send(plain, LSO, 0, "0", kv("k0", "v1", "k1", "v1", "k2", "v1", "k3", "v1", "k4", "v1", "k5", "v1"));
                send(plain, LSO, 0, "0", kv("k0", "v2", "k1", "v2", "k2", "v2"));
                txn(tx, false, LSO, 0, "0", kv("k2", "aborted", "k3", "aborted"));
                commit(admin, groupB, COMPACT, 2);
                commit(admin, groupA, COMPACT, 2);
                Thread.sleep(ROLL_PAUSE_MS);
                send(plain, COMPACT, 0, "3", kv("k7", "r2-v6"));
                Thread.sleep(ROLL_PAUSE_MS);
                send(plain, COMPACT, 0, "4", kv("f0", "r2-roll"));
                event("open-transaction-next", "transactionalId", "cu-open");
            }
        }
        // the rest goes on in `cleanup-open` (a JVM that halts with the transaction open)
    }

    /**
     * The transaction left open, in the middle of a segment of cu-lso and of __consumer_offsets-0: committed data
     * starts the segment (the pause before it rolls), then the open transaction's data and offset commit, then more
     * committed data; all within segment.ms. Then two more segments of each, the topics with old timestamps, and the
     * JVM halts (no abort, no close: cu-open stays Ongoing, timeout 1 h).
     */
    static void open(String bootstrap) throws Exception {
        String groupA = groupOn("cu-group-a", 0);
        String groupB = groupOn("cu-group-b", 0);
        String groupOpen = groupOn("cu-group-open", 0);
        try (Admin admin = admin(bootstrap);
             KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false");
             KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true")) {
            KafkaProducer<byte[], byte[]> open = producer(bootstrap, "transactional.id", "cu-open", "transaction.timeout.ms", "3600000");
            open.initTransactions();
            admin.describeCluster().nodes().get();
            send(plain, LSO, 0, "1", kv("k3", "v2"));
            send(idem, LSO, 0, "1", kv("k5", "v2-idem"));
            commit(admin, groupB, COMPACT, 3);
            open.beginTransaction();
            List<RecordMetadata> md = batch(open, recs(LSO, 0, kv("k0", "open-tx", "k4", "open-tx")));
            open.sendOffsetsToTransaction(Map.of(new TopicPartition(LSO, 0), new OffsetAndMetadata(7, "open")), new ConsumerGroupMetadata(groupOpen));
            event("open", "transactionalId", "cu-open", "topic", LSO, "offsets", offsets(md), "group", groupOpen, "timeoutMs", 3600000);
            commit(admin, groupA, COMPACT, 3);
            send(plain, LSO, 0, "1", kv("k1", "v3", "k5", "v3"));
            Thread.sleep(ROLL_PAUSE_MS);
            send(plain, LSO, 0, "2", kv("k2", "v3"));
            commit(admin, groupA, COMPACT, 4);
            Thread.sleep(ROLL_PAUSE_MS);
            send(plain, LSO, 0, "3", kv("k1", "v4"));
            commit(admin, groupB, COMPACT, 5);
            oldTimestampTopics(plain);
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }

    /** The topics written with explicit past timestamps (no transactions): cu-lag, cu-del-time, cu-del-size. */
    static void oldTimestampTopics(KafkaProducer<byte[], byte[]> p) throws Exception {
        long t = System.currentTimeMillis();
        event("clock", "oldTimestampBaseMs", t);
        {
            // cu-lag (min.compaction.lag.ms 1 h): 2 segments 3 h old (cleanable), 1 segment 10 min old (held back
            // by the lag), the active segment 8 min old
            sendAt(p, LAG, 0, t - 3 * HOUR, "0", kv("k0", "v1", "k1", "v1", "k2", "v1", "k3", "v1", "k4", "v1", "k5", "v1"));
            sendAt(p, LAG, 0, t - 3 * HOUR + 1000, "0", kv("k0", "v2", "k1", "v2"));
            sendAt(p, LAG, 0, t - 3 * HOUR + 2 * MIN, "1", kv("k2", "v2", "k5", null));
            sendAt(p, LAG, 0, t - 3 * HOUR + 2 * MIN + 1000, "1", kv("k1", "v3"));
            sendAt(p, LAG, 0, t - 10 * MIN, "2", kv("k0", "v3", "k3", "v2"));
            sendAt(p, LAG, 0, t - 8 * MIN, "3", kv("k4", "v2"));
            // cu-del-time-0 (retention.ms 1 h): 2 segments past retention, 2 within it (the last is the active one)
            long[] p0 = {t - 3 * HOUR, t - 2 * HOUR, t - 30 * MIN, t - 20 * MIN};
            for (int s = 0; s < p0.length; s++) {
                sendAt(p, DEL_TIME, 0, p0[s], String.valueOf(s), numbered("t0s" + s, 3));
                sendAt(p, DEL_TIME, 0, p0[s] + 1000, String.valueOf(s), numbered("t0s" + s + "b", 2));
            }
            // cu-del-time-1: every segment past retention, the active one too
            long[] p1 = {t - 3 * HOUR, t - 2 * HOUR};
            for (int s = 0; s < p1.length; s++) sendAt(p, DEL_TIME, 1, p1[s], String.valueOf(s), numbered("t1s" + s, 4));
            // cu-del-size (retention.bytes 1000, retention.ms -1): 4 segments of ~560 bytes
            for (int s = 0; s < 4; s++) {
                sendAt(p, DEL_SIZE, 0, t - 5 * HOUR + s * 2 * MIN, String.valueOf(s), numbered("b" + s, 4));
                sendAt(p, DEL_SIZE, 0, t - 5 * HOUR + s * 2 * MIN + 1000, String.valueOf(s), numbered("b" + s + "x", 4));
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** A group id prefix-N whose __consumer_offsets partition (Utils.abs(hashCode) % 3) is `partition`. */
    static String groupOn(String prefix, int partition) {
        for (int k = 0; ; k++) {
            String id = prefix + "-" + k;
            int h = id.hashCode();
            if ((h == Integer.MIN_VALUE ? 0 : Math.abs(h)) % 3 == partition) return id;
        }
    }

    static void commit(Admin admin, String group, String topic, long offset) throws Exception {
        admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(offset))).all().get();
        event("offset-commit", "group", group, "topic", topic, "offset", offset);
    }

    /** key, value pairs (value null = tombstone). */
    static String[] kv(String... pairs) {
        return pairs;
    }

    static String[] numbered(String tag, int n) {
        String[] out = new String[2 * n];
        for (int i = 0; i < n; i++) {
            out[2 * i] = tag + "-" + i;
            out[2 * i + 1] = "value-" + tag + "-" + i + "-................................";
        }
        return out;
    }

    static List<ProducerRecord<byte[], byte[]>> recs(String topic, int partition, String[] pairs) {
        return recsAt(topic, partition, null, pairs);
    }

    static List<ProducerRecord<byte[], byte[]>> recsAt(String topic, int partition, Long ts, String[] pairs) {
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) l.add(new ProducerRecord<>(topic, partition, ts, b(pairs[i]), b(pairs[i + 1])));
        return l;
    }

    static void send(KafkaProducer<byte[], byte[]> p, String topic, int partition, String segment, String[] pairs) throws Exception {
        List<RecordMetadata> md = batch(p, recs(topic, partition, pairs));
        event("batch", "topic", topic, "partition", partition, "segment", segment, "offsets", offsets(md), "keys", keys(pairs));
    }

    static void sendAt(KafkaProducer<byte[], byte[]> p, String topic, int partition, long ts, String segment, String[] pairs) throws Exception {
        List<RecordMetadata> md = batch(p, recsAt(topic, partition, ts, pairs));
        event("batch", "topic", topic, "partition", partition, "segment", segment, "timestamp", ts, "offsets", offsets(md), "keys", keys(pairs));
    }

    static void txn(KafkaProducer<byte[], byte[]> p, boolean commit, String topic, int partition, String segment, String[] pairs) throws Exception {
        p.beginTransaction();
        List<RecordMetadata> md = batch(p, recs(topic, partition, pairs));
        if (commit) p.commitTransaction();
        else p.abortTransaction();
        event(commit ? "commit" : "abort", "topic", topic, "partition", partition, "segment", segment, "offsets", offsets(md), "keys", keys(pairs));
    }

    static List<String> keys(String[] pairs) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) l.add(pairs[i] + (pairs[i + 1] == null ? "=null" : ""));
        return l;
    }

    private Cleanup() { }
}
