package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Tiered storage (KIP-405) workload: a broker with remote.log.storage.system.enable and a RemoteStorageManager
 * (Kafka's LocalTieredStorage or Aiven's plugin, scripts/fixtures/tiered*.mjs), topics with remote.storage.enable,
 * segment.ms (Kafka 4.x refuses segment.bytes below 1 MiB) and a short local.retention.ms, so the older segments
 * are copied to remote storage and then deleted from the log dir.
 *
 * `tiered TOPIC:PARTITIONS[,TOPIC:PARTITIONS...] PAUSE_MS` writes five phases, each after a pause longer than
 * segment.ms, so each phase starts a new segment (A..E) of every partition:
 *  A  idempotent records (tier-idem)
 *  B  tx-span begins (2 records per partition); idempotent records
 *  C  tx-span continues; tx-abort begins and aborts (whole transaction in C); tx-late-abort begins
 *  D  tx-span commits and tx-late-abort aborts (their markers are the first records of D); tx-open begins
 *  E  tx-open continues; tx-commit-e commits; idempotent records; the JVM halts with tx-open open
 * RemoteLogManager copies a segment only when the next segment's base offset is at most the last stable offset
 * (RemoteLogManager.RLMCopyTask.candidateLogSegments), so tx-open keeps D and E local, A..C go remote: tx-span's
 * data is remote and its COMMIT marker local, tx-late-abort's data is remote and its ABORT marker (and .txnindex
 * entry) local, tx-abort is remote entirely (remote .txnindex).
 *
 * `tiered-wait TOPIC:PARTITIONS[:kept][,...] TIMEOUT_MS [TOPIC:PARTITION=EARLIEST,...]` waits until every
 * partition has tiered data (ListOffsets latest-tiered >= 0), the local log start is right above it
 * (earliest-local == latest-tiered + 1; not for a topic marked `kept`, whose local.retention keeps the copied
 * segments) and the log start is EARLIEST where one is given, stable for 3 s, then prints the offsets (event
 * "tiered-offsets").
 *
 * `tiered-delete TOPIC:PARTITION=OFFSET,...` Admin.deleteRecords (DeleteRecords API): the log start offset moves
 * to OFFSET and RemoteLogManager deletes the remote segments wholly below it (RLMExpirationTask,
 * DELETE_SEGMENT_STARTED / DELETE_SEGMENT_FINISHED in __remote_log_metadata).
 */
final class Tiered {
    static final String IDEM = "tier-idem";

    static List<TopicPartition> parse(String spec) {
        List<TopicPartition> out = new ArrayList<>();
        for (String tp : spec.split(",")) {
            String[] a = tp.split(":");
            for (int p = 0; p < Integer.parseInt(a[1]); p++) out.add(new TopicPartition(a[0], p));
        }
        return out;
    }

    /** Topics of a spec marked `kept` (TOPIC:PARTITIONS:kept). */
    static java.util.Set<String> kept(String spec) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String tp : spec.split(",")) if (tp.endsWith(":kept")) out.add(tp.split(":")[0]);
        return out;
    }

    /** TOPIC:PARTITION=OFFSET,... */
    static Map<TopicPartition, Long> offsetSpec(String spec) {
        Map<TopicPartition, Long> out = new HashMap<>();
        if (spec == null || spec.isEmpty()) return out;
        for (String e : spec.split(",")) {
            String[] kv = e.split("=");
            int c = kv[0].lastIndexOf(':');
            out.put(new TopicPartition(kv[0].substring(0, c), Integer.parseInt(kv[0].substring(c + 1))), Long.parseLong(kv[1]));
        }
        return out;
    }

    static void deleteRecords(String bootstrap, String spec) throws Exception {
        Map<TopicPartition, org.apache.kafka.clients.admin.RecordsToDelete> m = new HashMap<>();
        for (var e : offsetSpec(spec).entrySet()) m.put(e.getKey(), org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(e.getValue()));
        try (Admin a = admin(bootstrap)) {
            var r = a.deleteRecords(m).lowWatermarks();
            for (var e : r.entrySet()) event("delete-records", "topicPartition", e.getKey().toString(), "lowWatermark", e.getValue().get().lowWatermark());
        }
    }

    static List<ProducerRecord<byte[], byte[]>> recs(List<TopicPartition> tps, String tag, int n) {
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        for (TopicPartition tp : tps) for (int i = 0; i < n; i++) l.add(rec(tp.topic(), tp.partition(), tag + "-k" + i, tag + "-v" + i + "-" + tp));
        return l;
    }

    static KafkaProducer<byte[], byte[]> tx(String bootstrap, String id) {
        KafkaProducer<byte[], byte[]> p = producer(bootstrap, "transactional.id", id, "transaction.timeout.ms", "600000");
        p.initTransactions();
        return p;
    }

    /** A whole transaction of a new transactional producer in one segment: begin, one batch, commit or abort. */
    static void whole(String bootstrap, String id, List<ProducerRecord<byte[], byte[]>> recs, boolean commit, String segment) throws Exception {
        KafkaProducer<byte[], byte[]> p = tx(bootstrap, id);
        p.beginTransaction();
        batch(p, recs);
        if (commit) p.commitTransaction();
        else p.abortTransaction();
        event(commit ? "commit" : "abort", "id", id, "segment", segment);
    }

    static void pause(long ms, String next) throws InterruptedException {
        Thread.sleep(ms);
        event("phase", "segment", next);
    }

    static void run(String bootstrap, String spec, long pauseMs) throws Exception {
        List<TopicPartition> tps = parse(spec);
        java.util.Set<String> kept = kept(spec);
        List<org.apache.kafka.clients.admin.NewTopic> topics = new ArrayList<>();
        for (String t : spec.split(",")) {
            String[] a = t.split(":");
            topics.add(topic(a[0], Integer.parseInt(a[1]), "remote.storage.enable", "true", "segment.ms", String.valueOf(pauseMs * 2 / 3),
                "retention.ms", "-1", "local.retention.ms", kept.contains(a[0]) ? "-2" : "1000", "file.delete.delay.ms", "1000"));
        }
        createTopics(bootstrap, topics);
        KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
        event("phase", "segment", "A");
        batch(idem, recs(tps, "A-idem", 2));
        batch(idem, recs(tps, "A-idem2", 3));

        pause(pauseMs, "B");
        KafkaProducer<byte[], byte[]> span = tx(bootstrap, "tx-span");
        span.beginTransaction();
        List<org.apache.kafka.clients.producer.RecordMetadata> b = batch(span, recs(tps, "B-span", 2));
        for (var m : b) if (m.offset() >= 0) event("first-of-B", "topicPartition", m.topic() + ":" + m.partition(), "offset", m.offset());
        batch(idem, recs(tps, "B-idem", 2));

        pause(pauseMs, "C");
        batch(span, recs(tps, "C-span", 2));
        whole(bootstrap, "tx-abort", recs(tps, "C-abort", 2), false, "C");
        KafkaProducer<byte[], byte[]> late = tx(bootstrap, "tx-late-abort");
        late.beginTransaction();
        batch(late, recs(tps, "C-late-abort", 2));
        batch(idem, recs(tps, "C-idem", 1));

        pause(pauseMs, "D");
        span.commitTransaction();
        event("commit", "id", "tx-span", "began", "B", "markers", "D");
        late.abortTransaction();
        event("abort", "id", "tx-late-abort", "began", "C", "markers", "D");
        KafkaProducer<byte[], byte[]> open = tx(bootstrap, "tx-open");
        open.beginTransaction();
        batch(open, recs(tps, "D-open", 2));
        batch(idem, recs(tps, "D-idem", 2));

        pause(pauseMs, "E");
        batch(open, recs(tps, "E-open", 1));
        whole(bootstrap, "tx-commit-e", recs(tps, "E-commit", 2), true, "E");
        batch(idem, recs(tps, "E-idem", 2));
        event("open", "id", "tx-open", "began", "D", "note", "left open: the JVM halts");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    /** ListOffsets earliest / earliest-local (-4, KIP-1005) / latest-tiered (-5) / latest / LSO per partition. */
    static Map<TopicPartition, long[]> offsets(Admin a, List<TopicPartition> tps) throws Exception {
        Map<TopicPartition, long[]> out = new HashMap<>();
        OffsetSpec[] specs = {OffsetSpec.earliest(), OffsetSpec.earliestLocal(), OffsetSpec.latestTiered(), OffsetSpec.latest(), OffsetSpec.latest()};
        for (int i = 0; i < specs.length; i++) {
            Map<TopicPartition, OffsetSpec> q = new HashMap<>();
            for (TopicPartition tp : tps) q.put(tp, specs[i]);
            ListOffsetsOptions o = new ListOffsetsOptions(i == 4 ? IsolationLevel.READ_COMMITTED : IsolationLevel.READ_UNCOMMITTED);
            var r = a.listOffsets(q, o).all().get();
            for (TopicPartition tp : tps) out.computeIfAbsent(tp, k -> new long[specs.length])[i] = r.get(tp).offset();
        }
        return out;
    }

    static void waitTiered(String bootstrap, String spec, long timeoutMs, String earliestSpec) throws Exception {
        List<TopicPartition> tps = parse(spec);
        java.util.Set<String> kept = kept(spec);
        Map<TopicPartition, Long> earliest = offsetSpec(earliestSpec);
        long end = System.nanoTime() + Duration.ofMillis(timeoutMs).toNanos();
        try (Admin a = admin(bootstrap)) {
            String last = null;
            long stableSince = 0;
            for (;;) {
                Map<TopicPartition, long[]> o = offsets(a, tps);
                boolean ok = tps.stream().allMatch(tp -> o.get(tp)[2] >= 0
                    && (kept.contains(tp.topic()) || o.get(tp)[1] == o.get(tp)[2] + 1)
                    && (!earliest.containsKey(tp) || o.get(tp)[0] == earliest.get(tp)));
                StringBuilder b = new StringBuilder();
                for (TopicPartition tp : tps) b.append(tp).append(java.util.Arrays.toString(o.get(tp)));
                String now = b.toString();
                if (!now.equals(last)) { last = now; stableSince = System.nanoTime(); log("offsets " + now); }
                if (ok && System.nanoTime() - stableSince > Duration.ofSeconds(3).toNanos()) {
                    for (TopicPartition tp : tps) {
                        long[] v = o.get(tp);
                        event("tiered-offsets", "topic", tp.topic(), "partition", tp.partition(), "earliest", v[0], "earliestLocal", v[1],
                            "latestTiered", v[2], "latest", v[3], "lastStable", v[4]);
                    }
                    return;
                }
                if (System.nanoTime() > end) throw new IllegalStateException("tiering did not settle: " + now);
                Thread.sleep(500);
            }
        }
    }

    private Tiered() { }
}
