package tsdump.gen;

import static tsdump.gen.Cleanup.*;
import static tsdump.gen.Gen.*;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The seeded random workload of the cleanup live check (scripts/fixtures/v44/cleanup-random.mjs): run on a broker
 * with log.cleaner.enable=false and retention off; the script then copies the log dir, restarts the broker with the
 * cleaner and retention on and records what they did.
 *
 *  - rnd-compact (1-2 partitions, compact, segment.ms 1500, wall clock): random puts and tombstones over a small key
 *    set from a plain, an idempotent and two transactional producers (commits and aborts), pauses that roll segments;
 *    random delete.retention.ms (0 or 1 day) and min.cleanable.dirty.ratio;
 *  - rnd-lag (compact, min.compaction.lag.ms 1 h, explicit timestamps): segments of random ages around the lag;
 *  - rnd-del (delete, retention.ms 1 h, random retention.bytes or -1, explicit timestamps): segments of random ages;
 *  - sometimes a transaction left open in rnd-compact-0 (the JVM halts; timeout 15 min), which holds its cleaning.
 * Prints the events of Cleanup's helpers and {"event":"random-done", description:[...]} last.
 */
final class CleanupRandom {
    static void run(String bootstrap, long seed) throws Exception {
        java.util.Random r = new java.util.Random(seed);
        int parts = 1 + r.nextInt(2);
        String retention = r.nextBoolean() ? "0" : "86400000";
        String ratio = new String[] {"0.01", "0.3", "0.9"}[r.nextInt(3)];
        boolean leaveOpen = r.nextBoolean();
        long retentionBytes = r.nextBoolean() ? -1 : 600 + r.nextInt(2400);
        int nKeys = 3 + r.nextInt(8);
        List<String> desc = new ArrayList<>(List.of("seed=" + seed, "partitions=" + parts, "delete.retention.ms=" + retention,
            "min.cleanable.dirty.ratio=" + ratio, "leaveOpen=" + leaveOpen, "rnd-del retention.bytes=" + retentionBytes, "keys=" + nKeys));
        createTopics(bootstrap, List.of(
            topic("rnd-compact", parts, "cleanup.policy", "compact", "segment.ms", "1500", "delete.retention.ms", retention,
                "min.cleanable.dirty.ratio", ratio),
            topic("rnd-lag", 1, "cleanup.policy", "compact", "segment.ms", "60000", "min.compaction.lag.ms", String.valueOf(HOUR)),
            topic("rnd-del", 1, "cleanup.policy", "delete", "segment.ms", "60000", "retention.ms", String.valueOf(HOUR),
                "retention.bytes", String.valueOf(retentionBytes))));
        try (KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false");
             KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
             KafkaProducer<byte[], byte[]> tx1 = producer(bootstrap, "transactional.id", "rnd-tx-1", "transaction.timeout.ms", "60000");
             KafkaProducer<byte[], byte[]> tx2 = producer(bootstrap, "transactional.id", "rnd-tx-2", "transaction.timeout.ms", "60000")) {
            tx1.initTransactions();
            tx2.initTransactions();
            int segments = 2 + r.nextInt(3);
            int seq = 0;
            for (int s = 0; s < segments; s++) {
                if (s > 0) Thread.sleep(ROLL_PAUSE_MS);
                int steps = 2 + r.nextInt(5);
                for (int i = 0; i < steps; i++) {
                    int part = r.nextInt(parts);
                    int n = 1 + r.nextInt(3);
                    String[] pairs = new String[2 * n];
                    for (int k = 0; k < n; k++) {
                        pairs[2 * k] = "k" + r.nextInt(nKeys);
                        pairs[2 * k + 1] = r.nextInt(5) == 0 ? null : "v" + (seq++);
                    }
                    int who = r.nextInt(4);
                    if (who == 0) send(plain, "rnd-compact", part, String.valueOf(s), pairs);
                    else if (who == 1) send(idem, "rnd-compact", part, String.valueOf(s), pairs);
                    else txn(who == 2 ? tx1 : tx2, r.nextBoolean(), "rnd-compact", part, String.valueOf(s), pairs);
                }
            }
            long t = System.currentTimeMillis();
            // rnd-lag and rnd-del: segments 10 min apart, ages from 3 h down to a few minutes
            int lagSegs = 2 + r.nextInt(4);
            for (int s = 0; s < lagSegs; s++) {
                long ts = t - (long) (r.nextDouble() * 3 * HOUR);
                if (s > 0) ts = Math.max(ts, t - 3 * HOUR + s * 10 * MIN);
                String[] pairs = new String[4];
                for (int k = 0; k < 2; k++) {
                    pairs[2 * k] = "k" + r.nextInt(nKeys);
                    pairs[2 * k + 1] = r.nextInt(5) == 0 ? null : "v" + (seq++);
                }
                sendAt(plain, "rnd-lag", 0, ts, String.valueOf(s), pairs);
            }
            int delSegs = 2 + r.nextInt(4);
            long ts = t - 3 * HOUR;
            for (int s = 0; s < delSegs; s++) {
                ts += (2 + r.nextInt(80)) * MIN;
                sendAt(plain, "rnd-del", 0, Math.min(ts, t - MIN), String.valueOf(s), numbered("d" + s, 1 + r.nextInt(4)));
            }
            desc.add("compactSegments=" + segments);
            desc.add("lagSegments=" + lagSegs);
            desc.add("delSegments=" + delSegs);
        }
        if (leaveOpen) {
            KafkaProducer<byte[], byte[]> o = producer(bootstrap, "transactional.id", "rnd-open", "transaction.timeout.ms", "900000");
            o.initTransactions();
            o.beginTransaction();
            batch(o, recs("rnd-compact", 0, kv("k0", "open", "k1", "open")));
            try (KafkaProducer<byte[], byte[]> plain = producer(bootstrap, "enable.idempotence", "false")) {
                send(plain, "rnd-compact", 0, "open", kv("k2", "after-open"));
                Thread.sleep(ROLL_PAUSE_MS);
                send(plain, "rnd-compact", 0, "last", kv("k3", "last"));
            }
        }
        event("random-done", "description", desc);
        System.out.flush();
        Runtime.getRuntime().halt(0); // with leaveOpen, rnd-open stays Ongoing
    }

    private CleanupRandom() { }
}
