package tsdump.gen;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * The generator's own log of every transaction it ran (the `transactions` scenario and the seeded random mode): filled
 * by LoggedProducer as the client calls happen, printed as JSON at the end. Documented field by field in
 * fixtures/README.md ("transactions").
 */
final class TxLog {
    /** One transaction: beginTransaction up to its commit/abort (or the coordinator's abort, or none: open). */
    static final class Tx {
        final int seq;
        final String app;
        final String transactionalId;
        final long producerId;
        final short producerEpoch;
        final int transactionVersion;
        final long startedAt;
        /** per partition: records acknowledged, first offset, last offset */
        private final Map<TopicPartition, long[]> parts = new TreeMap<>(
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        private final List<Map<String, Object>> offsets = new ArrayList<>();
        private String outcome;
        private long endedAt = -1;
        private String clientError;
        private String note;

        Tx(int seq, String app, String transactionalId, long producerId, short producerEpoch, int transactionVersion, long startedAt) {
            this.seq = seq;
            this.app = app;
            this.transactionalId = transactionalId;
            this.producerId = producerId;
            this.producerEpoch = producerEpoch;
            this.transactionVersion = transactionVersion;
            this.startedAt = startedAt;
        }

        synchronized void acked(String topic, int partition, long offset) {
            long[] a = parts.computeIfAbsent(new TopicPartition(topic, partition), k -> new long[] {0, Long.MAX_VALUE, -1});
            a[0]++;
            a[1] = Math.min(a[1], offset);
            a[2] = Math.max(a[2], offset);
        }

        synchronized void offsetsSent(String group, int offsetsPartition, Map<TopicPartition, OffsetAndMetadata> o) {
            List<TopicPartition> tps = new ArrayList<>(o.keySet());
            tps.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            for (TopicPartition tp : tps) {
                offsets.add(Json.obj("group", group, "topic", tp.topic(), "partition", tp.partition(),
                    "offset", o.get(tp).offset(), "metadata", o.get(tp).metadata(), "offsetsPartition", offsetsPartition));
            }
        }

        synchronized void end(String outcome, long at) {
            this.outcome = outcome;
            this.endedAt = at;
        }

        synchronized void clientError(Throwable e) {
            this.clientError = e.getClass().getSimpleName() + ": " + e.getMessage();
        }

        synchronized void note(String s) {
            this.note = note == null ? s : note + "; " + s;
        }

        synchronized String outcome() {
            return outcome == null ? "open" : outcome;
        }

        synchronized long records() {
            long n = 0;
            for (long[] a : parts.values()) n += a[0];
            return n;
        }

        synchronized Map<String, Object> json(int txnStatePartitions) {
            List<Object> ps = new ArrayList<>();
            for (Map.Entry<TopicPartition, long[]> e : parts.entrySet()) {
                ps.add(Json.obj("topic", e.getKey().topic(), "partition", e.getKey().partition(), "records", e.getValue()[0],
                    "firstOffset", e.getValue()[1], "lastOffset", e.getValue()[2]));
            }
            Map<String, Object> m = Json.obj("seq", seq, "app", app, "transactionalId", transactionalId,
                "coordinatorPartition", partitionFor(transactionalId, txnStatePartitions),
                "producerId", producerId, "producerEpoch", producerEpoch, "transactionVersion", transactionVersion,
                "partitions", ps, "offsetsSent", new ArrayList<>(offsets), "outcome", outcome(),
                "startedAt", startedAt, "endedAt", endedAt < 0 ? null : endedAt);
            if (clientError != null) m.put("clientError", clientError);
            if (note != null) m.put("note", note);
            return m;
        }
    }

    private final List<Tx> txs = new ArrayList<>();
    private int nextSeq;
    private final List<Map<String, Object>> sessions = new ArrayList<>();
    private final List<Map<String, Object>> consumerCommits = new ArrayList<>();
    final int offsetsPartitions;
    final int txnStatePartitions;

    TxLog(int offsetsPartitions, int txnStatePartitions) {
        this.offsetsPartitions = offsetsPartitions;
        this.txnStatePartitions = txnStatePartitions;
    }

    /** The coordinator partition of a group or transactional id: Utils.abs(id.hashCode()) % partitions (GroupMetadataManager, TransactionStateManager). */
    static int partitionFor(String id, int partitions) {
        return Utils.abs(id.hashCode()) % partitions;
    }

    synchronized Tx begin(String app, String transactionalId, long producerId, short producerEpoch, int tv, long at) {
        Tx t = new Tx(nextSeq++, app, transactionalId, producerId, producerEpoch, tv, at);
        txs.add(t);
        return t;
    }

    /** Forget a transaction already written elsewhere (Scale streams its log to a file: memory stays bounded). */
    synchronized void drop(Tx t) {
        txs.remove(t);
    }

    /** initTransactions (InitProducerId) returned this producer id and epoch. */
    synchronized void session(String app, String transactionalId, long producerId, short producerEpoch, int tv, int timeoutMs, long at) {
        sessions.add(Json.obj("app", app, "transactionalId", transactionalId, "producerId", producerId, "producerEpoch", producerEpoch,
            "transactionVersion", tv, "transactionTimeoutMs", timeoutMs, "at", at));
    }

    /** A consumer's commitSync of these offsets returned (an offset commit outside any transaction). */
    synchronized void consumerCommit(String app, String group, Map<TopicPartition, OffsetAndMetadata> o, long at) {
        List<TopicPartition> tps = new ArrayList<>(o.keySet());
        tps.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        for (TopicPartition tp : tps) {
            consumerCommits.add(Json.obj("app", app, "group", group, "topic", tp.topic(), "partition", tp.partition(),
                "offset", o.get(tp).offset(), "metadata", o.get(tp).metadata(), "offsetsPartition", partitionFor(group, offsetsPartitions), "at", at));
        }
    }

    synchronized List<Tx> transactions() {
        return new ArrayList<>(txs);
    }

    synchronized Map<String, Object> json() {
        List<Object> l = new ArrayList<>();
        for (Tx t : txs) l.add(t.json(txnStatePartitions));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("transactions", l);
        m.put("producerSessions", new ArrayList<>(sessions));
        m.put("consumerCommits", new ArrayList<>(consumerCommits));
        return m;
    }
}
