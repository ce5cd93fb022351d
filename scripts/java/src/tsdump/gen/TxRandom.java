package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The seeded random mode of the `transactions` workload, for the live broker test (issue #21: `transactions --json`
 * against this log): topics rnd-in (2 partitions, 6 records each), rnd-a (2-3 partitions), rnd-b (1-2); 2-4
 * transactional ids rnd-0.. (rnd-0 and some others with a group rnd-g-<k> whose offsets they send with
 * sendOffsetsToTransaction), 3-4 rounds in which their transactions are open at the same time, write random batches to
 * random partitions and end in a random order (commit or abort, round 0 always both; sometimes offsets only; every id
 * takes part in round 0, later rounds 9 in 10); sometimes a fence in a later round (a second producer of the same id),
 * sometimes a coordinator timeout abort (rnd-timeout, 2 s); always one transaction left open (rnd-open; the JVM halts).
 * Prints {"event":"transactionLog", seed, description, transactions, producerSessions} (TxLog).
 */
final class TxRandom {
    static final String IN = "rnd-in";

    static void run(String bootstrap, long seed) throws Exception {
        java.util.Random r = new java.util.Random(seed);
        int partsA = 2 + r.nextInt(2);
        int partsB = 1 + r.nextInt(2);
        int nIds = 2 + r.nextInt(3);
        int rounds = 3 + r.nextInt(2);
        boolean fence = r.nextBoolean();
        boolean timeout = r.nextInt(10) < 3;
        List<String> desc = new ArrayList<>(List.of("rnd-a partitions=" + partsA, "rnd-b partitions=" + partsB, "ids=" + nIds,
            "rounds=" + rounds, "fence=" + fence, "timeout=" + timeout));
        createTopics(bootstrap, List.of(topic(IN, 2), topic("rnd-a", partsA), topic("rnd-b", partsB)));
        try (KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true")) {
            for (int p = 0; p < 2; p++) batch(idem, TxApps.recs(IN, p, "in" + p, 6));
        }
        TxLog log = Transactions.newLog(bootstrap);
        List<LoggedProducer> ps = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        int[][] pos = new int[nIds][2];
        for (int k = 0; k < nIds; k++) {
            ps.add(Transactions.txProducer(log, "random", bootstrap, "rnd-" + k, 600000));
            groups.add(k == 0 || r.nextBoolean() ? "rnd-g-" + k : null); // rnd-0 always sends offsets
        }
        desc.add("groups=" + groups);
        int fenceRound = fence ? 1 + r.nextInt(rounds - 1) : -1;
        for (int round = 0; round < rounds; round++) {
            List<Integer> open = new ArrayList<>();
            for (int k = 0; k < nIds; k++) {
                if (round > 0 && r.nextInt(10) == 0) continue; // this id sits the round out
                ps.get(k).beginTransaction();
                open.add(k);
            }
            boolean[] wrote = new boolean[nIds];
            int steps = 2 + r.nextInt(6);
            for (int s = 0; s < steps && !open.isEmpty(); s++) {
                int k = open.get(r.nextInt(open.size()));
                write(ps.get(k), r, partsA, partsB, "r" + round + "s" + s);
                wrote[k] = true;
            }
            for (int k : open) {
                boolean offsets = groups.get(k) != null && r.nextBoolean();
                if (!wrote[k] && !offsets && groups.get(k) != null && r.nextInt(3) == 0) offsets = true; // offsets only
                if (!wrote[k] && !offsets) write(ps.get(k), r, partsA, partsB, "r" + round + "late");
                if (offsets) sendOffsets(ps.get(k), groups.get(k), pos[k], r);
            }
            Collections.shuffle(open, r);
            int ended = 0;
            for (int k : open) {
                // round 0 always holds a commit and an abort (the first two transactions to end)
                boolean commit = round == 0 && ended < 2 ? ended == 0 : r.nextInt(10) < 6;
                ended++;
                if (round == fenceRound && round > 0 && k == open.get(0)) {
                    // a second producer of the same id: its initTransactions aborts this transaction
                    LoggedProducer old = ps.get(k);
                    LoggedProducer winner = Transactions.txProducer(log, "random", bootstrap, old.transactionalId(), 600000);
                    old.last().end("fenced", System.currentTimeMillis());
                    TxApps.commitMustFail(old, old.transactionalId() + " (fenced)");
                    old.close(Duration.ofSeconds(5));
                    ps.set(k, winner);
                    desc.add("fenced " + old.transactionalId() + " in round " + round);
                } else if (commit) {
                    ps.get(k).commitTransaction();
                } else {
                    ps.get(k).abortTransaction();
                }
            }
        }
        for (LoggedProducer p : ps) p.close();
        if (timeout) {
            LoggedProducer t = Transactions.txProducer(log, "random", bootstrap, "rnd-timeout", 2000);
            t.beginTransaction();
            write(t, r, partsA, partsB, "timeout");
            waitTxnState(bootstrap, "rnd-timeout", "COMPLETE_ABORT", Duration.ofSeconds(60));
            t.last().end("timed-out", System.currentTimeMillis());
            TxApps.commitMustFail(t, "rnd-timeout (timed out)");
            t.close(Duration.ofSeconds(5));
        }
        LoggedProducer o = Transactions.txProducer(log, "random", bootstrap, "rnd-open", 600000);
        o.beginTransaction();
        write(o, r, partsA, partsB, "open");
        if (r.nextBoolean()) sendOffsets(o, "rnd-g-open", new int[2], r);
        Map<String, Object> m = Json.obj("event", "transactionLog", "seed", seed, "description", desc);
        m.putAll(log.json());
        System.out.println(Json.write(m));
        System.out.flush();
        // rnd-open stays open: Gen.main halts the JVM
    }

    static void write(LoggedProducer p, java.util.Random r, int partsA, int partsB, String tag) throws Exception {
        boolean a = r.nextInt(3) > 0;
        String topic = a ? "rnd-a" : "rnd-b";
        int part = r.nextInt(a ? partsA : partsB);
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) l.add(rec(topic, part, r.nextInt(4) == 0 ? null : "k" + r.nextInt(10), p.transactionalId() + " " + tag + " " + i));
        batch(p, l);
    }

    /** Advance the group's position on 1-2 input partitions by 1-2 records (up to the 6 of each) and send those offsets. */
    static void sendOffsets(LoggedProducer p, String group, int[] pos, java.util.Random r) {
        Map<TopicPartition, OffsetAndMetadata> o = new HashMap<>();
        for (int part = 0; part < 2; part++) {
            if (o.isEmpty() && part == 1 || r.nextBoolean()) {
                pos[part] = Math.min(6, pos[part] + 1 + r.nextInt(2));
                o.put(new TopicPartition(IN, part), new OffsetAndMetadata(pos[part], ""));
            }
        }
        p.sendOffsetsToTransaction(o, new ConsumerGroupMetadata(group));
    }

    private TxRandom() { }
}
