package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The live broker test's random workload with the 4.4 Java client (transaction version 2), for
 * test/broker/live.test.ts against a 4.4.0 broker: topic `live` (1-3 partitions, small internal.segment.bytes so
 * transactions span segments), 2-3 transactional producers whose transactions are open at the same time and
 * interleave in the same partitions, then end in a random order (commit or abort); idempotent and plain writes
 * in between; sometimes a coordinator timeout abort; sometimes one transaction left open (the JVM halts).
 * Counts every record it writes by outcome, so the test can check the broker and the Java consumer against an
 * independent model. Prints {"event":"model", rc:[...], ru:[...], openTxn, description:[...]} last.
 */
final class Random {
    static void run(String bootstrap, long seed) throws Exception {
        java.util.Random r = new java.util.Random(seed);
        int parts = 1 + r.nextInt(3);
        int segmentBytes = new int[] {1024, 4096, 1048576}[r.nextInt(3)];
        int nTx = 2 + r.nextInt(2);
        boolean timeoutAbort = r.nextBoolean();
        boolean leaveOpen = r.nextBoolean();
        List<String> desc = new ArrayList<>(List.of("client=java-4.4.0", "partitions=" + parts, "internal.segment.bytes=" + segmentBytes,
            "txProducers=" + nTx, "timeoutAbort=" + timeoutAbort, "leaveOpen=" + leaveOpen));
        createTopics(bootstrap, List.of(topic("live", parts, "internal.segment.bytes", String.valueOf(segmentBytes), "index.interval.bytes", "512")));
        long[] rc = new long[parts];
        long[] ru = new long[parts];
        int[] seq = {0};
        KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false", "acks", "1");
        KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
        List<KafkaProducer<byte[], byte[]>> txs = new ArrayList<>();
        for (int i = 0; i < nTx; i++) {
            KafkaProducer<byte[], byte[]> p = producer(bootstrap, "transactional.id", "live-java-" + i, "transaction.timeout.ms", "600000");
            p.initTransactions();
            txs.add(p);
        }
        int rounds = 3 + r.nextInt(4);
        StringBuilder outcomes = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            long[][] pending = new long[nTx][parts];
            for (KafkaProducer<byte[], byte[]> p : txs) p.beginTransaction();
            int steps = 4 + r.nextInt(8);
            for (int s = 0; s < steps; s++) {
                int part = r.nextInt(parts);
                int n = 1 + r.nextInt(4);
                int who = r.nextInt(nTx + 2);
                List<ProducerRecord<byte[], byte[]>> recs = new ArrayList<>();
                for (int k = 0; k < n; k++) recs.add(rec("live", part, r.nextInt(5) == 0 ? null : "k" + r.nextInt(10), "v" + (seq[0]++)));
                if (who < nTx) {
                    batch(txs.get(who), recs);
                    pending[who][part] += n;
                } else {
                    batch(who == nTx ? plain : idem, recs);
                    rc[part] += n;
                    ru[part] += n;
                }
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < nTx; i++) order.add(i);
            Collections.shuffle(order, r);
            for (int i : order) {
                boolean commit = r.nextBoolean();
                if (commit) txs.get(i).commitTransaction();
                else txs.get(i).abortTransaction();
                outcomes.append(round).append('/').append(i).append(commit ? "=commit " : "=abort ");
                for (int p = 0; p < parts; p++) {
                    ru[p] += pending[i][p];
                    if (commit) rc[p] += pending[i][p];
                }
            }
        }
        desc.add("outcomes=" + outcomes.toString().trim());
        for (KafkaProducer<byte[], byte[]> p : txs) p.close();
        if (timeoutAbort) {
            KafkaProducer<byte[], byte[]> t = producer(bootstrap, "transactional.id", "live-java-timeout", "transaction.timeout.ms", "2000");
            t.initTransactions();
            t.beginTransaction();
            int part = r.nextInt(parts);
            batch(t, List.of(rec("live", part, "timeout", "aborted by the coordinator")));
            waitTxnState(bootstrap, "live-java-timeout", "COMPLETE_ABORT", Duration.ofSeconds(60));
            ru[part] += 1;
            t.close(Duration.ofSeconds(2));
        }
        batch(idem, List.of(rec("live", 0, "after", "idempotent")));
        rc[0]++;
        ru[0]++;
        plain.close();
        idem.close();
        if (leaveOpen) {
            KafkaProducer<byte[], byte[]> o = producer(bootstrap, "transactional.id", "live-java-open", "transaction.timeout.ms", "600000");
            o.initTransactions();
            o.beginTransaction();
            int part = r.nextInt(parts);
            batch(o, List.of(rec("live", part, "open", "never ended"), rec("live", part, "open", "never ended")));
            ru[part] += 2;
        }
        List<Long> rcl = new ArrayList<>();
        List<Long> rul = new ArrayList<>();
        for (int p = 0; p < parts; p++) { rcl.add(rc[p]); rul.add(ru[p]); }
        event("model", "partitions", parts, "rc", rcl, "ru", rul, "openTxn", leaveOpen, "description", desc);
        // with leaveOpen the producer is never closed: the JVM halts (Gen.main) with the transaction open
    }

    private Random() { }
}
