package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Transactions with transaction version 2 (KIP-890: the 4.4 broker finalizes transaction.version=2 by default,
 * the 4.4 client uses it: every transaction end bumps the producer epoch, the markers carry the bumped epoch).
 *
 * Topic tv2 (2 partitions, segment.ms so the pauses below roll segments):
 *  1. tv2-a: commit (3 records p0, 2 p1, + offsets of group tv2-app), abort (2 records p0),
 *     an empty transaction (begin + commit, nothing sent: the client sends nothing at all),
 *     an offsets-only transaction (sendOffsetsToTransaction only: markers in __consumer_offsets only)
 *  2. tv2-a and tv2-b interleaved in p0: b begins, a begins, b commits, a aborts
 *  3. an idempotent producer (3 records p0), a plain one (enable.idempotence=false, acks=1, 2 records p1)
 *  4. fenced: tv2-fenced #1 writes 2 records to p1 and flushes; #2 (same transactional.id) initTransactions:
 *     the coordinator aborts #1's transaction and fences it; #1's commit fails; #2 commits 1 record to p1
 *  5. coordinator timeout: tv2-timeout (transaction.timeout.ms 2000) writes 2 records to p0 and waits; the
 *     broker (transaction.abort.timed.out.transaction.cleanup.interval.ms 500) aborts it (epoch bump);
 *     the producer's later commit fails
 * The open transaction of a halted producer is `open` (run last).
 */
final class Txn {
    static final String T = "tv2";

    static KafkaProducer<byte[], byte[]> tx(String bootstrap, String id, int timeoutMs) {
        KafkaProducer<byte[], byte[]> p = producer(bootstrap, "transactional.id", id, "transaction.timeout.ms", String.valueOf(timeoutMs));
        p.initTransactions();
        return p;
    }

    static List<ProducerRecord<byte[], byte[]>> recs(String tag, int partition, int n) {
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add(rec(T, partition, tag + "-k" + i, tag + "-v" + i));
        return l;
    }

    static void run(String bootstrap, long seed) throws Exception {
        createTopics(bootstrap, List.of(topic(T, 2, "segment.ms", "3000")));
        ConsumerGroupMetadata app = new ConsumerGroupMetadata("tv2-app");

        KafkaProducer<byte[], byte[]> a = tx(bootstrap, "tv2-a", 60000);
        a.beginTransaction();
        batch(a, recs("a-commit", 0, 3));
        batch(a, recs("a-commit", 1, 2));
        a.sendOffsetsToTransaction(Map.of(new TopicPartition(T, 0), new OffsetAndMetadata(3, "a-commit")), app);
        a.commitTransaction();
        event("commit", "id", "tv2-a", "records", 5);
        a.beginTransaction();
        batch(a, recs("a-abort", 0, 2));
        a.abortTransaction();
        event("abort", "id", "tv2-a", "records", 2);
        a.beginTransaction();
        a.commitTransaction();
        event("empty-commit", "id", "tv2-a", "note", "nothing sent: the client ends it locally, no EndTxn");
        a.beginTransaction();
        a.sendOffsetsToTransaction(Map.of(new TopicPartition(T, 1), new OffsetAndMetadata(2, "offsets-only")), app);
        a.commitTransaction();
        event("offsets-only-commit", "id", "tv2-a");

        KafkaProducer<byte[], byte[]> bp = tx(bootstrap, "tv2-b", 60000);
        bp.beginTransaction();
        batch(bp, recs("b-inter", 0, 2));
        a.beginTransaction();
        batch(a, recs("a-inter", 0, 2));
        batch(bp, recs("b-inter2", 0, 1));
        bp.commitTransaction();
        batch(a, recs("a-inter2", 0, 1));
        a.abortTransaction();
        event("interleaved", "committed", "tv2-b", "aborted", "tv2-a");
        a.close();
        bp.close();

        try (KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
             KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false", "acks", "1")) {
            batch(idem, recs("idem", 0, 3));
            batch(plain, recs("plain", 1, 2));
        }

        KafkaProducer<byte[], byte[]> f1 = tx(bootstrap, "tv2-fenced", 60000);
        f1.beginTransaction();
        batch(f1, recs("fenced-1", 1, 2));
        KafkaProducer<byte[], byte[]> f2 = tx(bootstrap, "tv2-fenced", 60000);
        String f1Error = null;
        try {
            f1.commitTransaction();
        } catch (Exception e) {
            f1Error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        f1.close(Duration.ofSeconds(5));
        event("fenced", "id", "tv2-fenced", "firstProducerCommit", f1Error == null ? "succeeded (unexpected)" : f1Error);
        f2.beginTransaction();
        batch(f2, recs("fenced-2", 1, 1));
        f2.commitTransaction();
        f2.close();

        KafkaProducer<byte[], byte[]> t = tx(bootstrap, "tv2-timeout", 2000);
        t.beginTransaction();
        batch(t, recs("timeout", 0, 2));
        TransactionDescription d = waitTxnState(bootstrap, "tv2-timeout", "COMPLETE_ABORT", Duration.ofSeconds(60));
        String tError = null;
        try {
            t.commitTransaction();
        } catch (Exception e) {
            tError = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        t.close(Duration.ofSeconds(5));
        event("coordinator-timeout-abort", "id", "tv2-timeout", "state", d.state().toString(),
              "producerId", d.producerId(), "producerEpoch", d.producerEpoch(), "laterCommit", tError == null ? "succeeded (unexpected)" : tError);
    }

    /**
     * tv2-open (transaction.timeout.ms 600000) writes 3 records to tv2-1 in a transaction and the JVM halts
     * (Runtime.halt: no close, no abort), so the transaction stays open until the broker's timeout. Also
     * tv2-open-2pc: one committed transaction and one left open the same way, with the producer config
     * transaction.two.phase.commit.enable=true (KIP-939; the broker allows it). Seen with 4.4.0: the client's
     * public API has no initTransactions(keepPreparedTxn)/prepareTransaction, and the coordinator logs
     * transactionTimeoutMs 60000, not Integer.MAX_VALUE: it is NOT a two-phase-commit transaction.
     */
    static void open(String bootstrap) throws Exception {
        KafkaProducer<byte[], byte[]> p = tx(bootstrap, "tv2-open", 600000);
        p.beginTransaction();
        batch(p, recs("open", 1, 3));
        event("open", "id", "tv2-open", "records", 3, "partition", 1);
        try {
            KafkaProducer<byte[], byte[]> q = new KafkaProducer<>(producerProps(bootstrap, "transactional.id", "tv2-open-2pc",
                "transaction.two.phase.commit.enable", "true"));
            q.initTransactions();
            q.beginTransaction();
            batch(q, recs("2pc-commit", 0, 1));
            q.commitTransaction();
            q.beginTransaction();
            batch(q, recs("2pc-open", 0, 2));
            event("open", "id", "tv2-open-2pc", "committed", 1, "records", 2, "partition", 0,
                "note", "transaction.two.phase.commit.enable=true; see __transaction_state for transactionTimeoutMs");
        } catch (Exception e) {
            event("open-2pc-failed", "error", e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    private Txn() { }
}
