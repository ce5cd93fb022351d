package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The scale workload (issue #34's truth): PRODUCERS read-process-write applications at the same time, one thread each.
 * Application k owns input partition scale-in-k (written first by an idempotent producer) and transactional id
 * scale-k; it reads with a read_committed consumer (assign, no group membership, as Flink's source does), writes each
 * transaction's 1-8 input records to 1-4 random partitions of scale-out, sends the input position to group
 * scale-g-(k mod 3) with sendOffsetsToTransaction and commits. Every ABORT_EVERY-th transaction of an application
 * aborts (staggered by k) and the application rewinds to its group's committed position, as an exactly-once
 * application does; FENCES transactions (seeded picks) are fenced instead: a second producer of the same id calls
 * initTransactions while the transaction is open and carries on in its place. After TRANSACTIONS transactions the
 * first OPEN applications begin one more transaction each (records and offsets) and the JVM halts with them open.
 * Topics roll segments at 16 MiB, so a large run spans several segments per partition.
 *
 * Every transaction is written as one JSON line to LOG_FILE as it ends (TxLog.Tx.json: transactionalId, producerId,
 * producerEpoch, transactionVersion, partitions with records/firstOffset/lastOffset, offsetsSent, outcome committed |
 * aborted | fenced | open) and then forgotten, so the generator's memory does not grow with the run. Prints
 * {"event":"scaleLog", seed, description, transactions, outcomes, producerSessions} last.
 * args: scale BOOTSTRAP SEED TRANSACTIONS PRODUCERS OUT_PARTITIONS LOG_FILE [ABORT_EVERY=10] [FENCES=2] [OPEN=3]
 */
final class Scale {
    static final String IN = "scale-in";
    static final String OUT = "scale-out";
    static final int MAX_RECORDS = 8;
    static final int MAX_WIDTH = 4;
    static final int GROUPS = 3;
    static final int TIMEOUT_MS = 600000; // the open transactions must outlive the observation that follows

    static void run(String bootstrap, String[] argv) throws Exception {
        try {
            scale(bootstrap, argv);
        } catch (Throwable e) {
            e.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(1); // open producers' threads must not keep a failed run alive
        }
    }

    private static void scale(String bootstrap, String[] argv) throws Exception {
        // a TV2 produce right after the previous EndTxn is answered CONCURRENT_TRANSACTIONS and retried, with a
        // warning each time: at 100,000 transactions that is tens of MB on stderr. Loggers created from here on
        // read this (slf4j-simple looks at the system properties when it creates a logger).
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.producer.internals.Sender", "error");
        long seed = Long.parseLong(argv[2]);
        int total = Integer.parseInt(argv[3]);
        int producers = Integer.parseInt(argv[4]);
        int outParts = Integer.parseInt(argv[5]);
        Path logFile = Path.of(argv[6]);
        int abortEvery = argv.length > 7 ? Integer.parseInt(argv[7]) : 10;
        int fences = argv.length > 8 ? Integer.parseInt(argv[8]) : 2;
        int open = Math.min(producers, argv.length > 9 ? Integer.parseInt(argv[9]) : 3);
        int[] share = new int[producers];
        for (int k = 0; k < producers; k++) share[k] = total / producers + (k < total % producers ? 1 : 0);
        java.util.Random r0 = new java.util.Random(seed);
        List<Set<Integer>> fenceAt = new ArrayList<>();
        for (int k = 0; k < producers; k++) fenceAt.add(new HashSet<>());
        List<String> desc = new ArrayList<>(List.of("transactions=" + total, "producers=" + producers, "scale-out partitions=" + outParts,
            "abortEvery=" + abortEvery, "open=" + open));
        for (int f = 0, tries = 0; f < fences && tries < 100; tries++) {
            int k = r0.nextInt(producers);
            if (share[k] < 2) continue;
            if (fenceAt.get(k).add(1 + r0.nextInt(share[k] - 1))) {
                f++;
            }
        }
        for (int k = 0; k < producers; k++) for (int i : fenceAt.get(k)) desc.add("fence scale-" + k + " #" + i);

        String seg = String.valueOf(16 << 20);
        createTopics(bootstrap, List.of(topic(IN, producers, "segment.bytes", seg), topic(OUT, outParts, "segment.bytes", seg)));
        writeInput(bootstrap, share);
        TxLog log = Transactions.newLog(bootstrap);
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        try (BufferedWriter w = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8)) {
            Sink sink = new Sink(log, w, outcomes);
            ExecutorService pool = Executors.newFixedThreadPool(producers);
            List<Future<?>> fs = new ArrayList<>();
            for (int k = 0; k < producers; k++) {
                App app = new App(bootstrap, log, sink, seed, k, share[k], fenceAt.get(k), abortEvery, k < open, outParts);
                fs.add(pool.submit(() -> {
                    app.run();
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get();
            pool.shutdown();
        }
        Map<String, Object> m = Json.obj("event", "scaleLog", "seed", seed, "description", desc, "logFile", logFile.toString(),
            "transactions", outcomes.values().stream().mapToInt(Integer::intValue).sum(), "outcomes", outcomes);
        m.put("producerSessions", log.json().get("producerSessions"));
        System.out.println(Json.write(m));
        System.out.flush();
        // the open transactions stay open: Gen.main halts the JVM
    }

    /** Each input partition holds enough records for all its application's transactions (an abort reads them again). */
    private static void writeInput(String bootstrap, int[] share) throws Exception {
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true", "linger.ms", "5", "batch.size", "262144")) {
            for (int k = 0; k < share.length; k++) {
                for (int i = 0; i < share[k] * MAX_RECORDS; i++) {
                    idem.send(rec(IN, k, "k" + k + "-" + i, "in " + k + "/" + i), (md, e) -> {
                        if (e != null) failed.compareAndSet(null, e);
                    });
                }
            }
            idem.flush();
        }
        if (failed.get() != null) throw failed.get();
    }

    /** The log file: one line per ended (or left open) transaction, written in the order they end. */
    private static final class Sink {
        final TxLog log;
        final BufferedWriter w;
        final Map<String, Integer> outcomes;

        Sink(TxLog log, BufferedWriter w, Map<String, Integer> outcomes) {
            this.log = log;
            this.w = w;
            this.outcomes = outcomes;
        }

        synchronized void write(TxLog.Tx t) throws Exception {
            w.write(Json.write(t.json(log.txnStatePartitions)));
            w.write('\n');
            outcomes.merge(t.outcome(), 1, Integer::sum);
            log.drop(t);
        }
    }

    private static final class App {
        final String bootstrap;
        final TxLog log;
        final Sink sink;
        final java.util.Random r;
        final int k;
        final int count;
        final Set<Integer> fenceAt;
        final int abortEvery;
        final boolean leaveOpen;
        final int outParts;
        final String id;
        final ConsumerGroupMetadata group;
        final TopicPartition in;
        final ArrayDeque<ConsumerRecord<byte[], byte[]>> buf = new ArrayDeque<>();

        App(String bootstrap, TxLog log, Sink sink, long seed, int k, int count, Set<Integer> fenceAt, int abortEvery, boolean leaveOpen, int outParts) {
            this.bootstrap = bootstrap;
            this.log = log;
            this.sink = sink;
            this.r = new java.util.Random(seed * 1_000_003L + k);
            this.k = k;
            this.count = count;
            this.fenceAt = fenceAt;
            this.abortEvery = abortEvery;
            this.leaveOpen = leaveOpen;
            this.outParts = outParts;
            this.id = "scale-" + k;
            this.group = new ConsumerGroupMetadata("scale-g-" + (k % GROUPS));
            this.in = new TopicPartition(IN, k);
        }

        void run() throws Exception {
            Properties cp = new Properties();
            cp.put("bootstrap.servers", bootstrap);
            cp.put("key.deserializer", ByteArrayDeserializer.class.getName());
            cp.put("value.deserializer", ByteArrayDeserializer.class.getName());
            cp.put("isolation.level", "read_committed");
            cp.put("enable.auto.commit", "false");
            cp.put("auto.offset.reset", "earliest");
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(cp)) {
                c.assign(List.of(in));
                c.seek(in, 0);
                long committed = 0;
                LoggedProducer p = Transactions.txProducer(log, "scale", bootstrap, id, TIMEOUT_MS);
                for (int i = 0; i < count; i++) {
                    long next = process(c, p);
                    if (fenceAt.contains(i)) {
                        // a second producer of the same id: its initTransactions aborts this transaction
                        LoggedProducer winner = Transactions.txProducer(log, "scale", bootstrap, id, TIMEOUT_MS);
                        TxLog.Tx t = p.last();
                        t.end("fenced", System.currentTimeMillis());
                        t.note("a second producer with the same transactional id called initTransactions");
                        TxApps.commitMustFail(p, id + " (fenced)");
                        p.close(Duration.ofSeconds(5));
                        sink.write(t);
                        p = winner;
                    } else if ((i + k) % abortEvery == abortEvery - 1) {
                        p.abortTransaction();
                        sink.write(p.last());
                    } else {
                        p.commitTransaction();
                        sink.write(p.last());
                        committed = next;
                        continue;
                    }
                    // aborted: resume from the group's committed position, reading those records again
                    buf.clear();
                    c.seek(in, committed);
                }
                if (leaveOpen) {
                    process(c, p);
                    p.last().note("left open: the JVM halts without commit or abort");
                    sink.write(p.last());
                } else {
                    p.close();
                }
            }
        }

        /** Begin a transaction, write 1-8 input records to 1-4 output partitions, send the offsets; returns the new position. */
        long process(KafkaConsumer<byte[], byte[]> c, LoggedProducer p) throws Exception {
            int n = 1 + r.nextInt(MAX_RECORDS);
            int width = 1 + r.nextInt(MAX_WIDTH);
            List<Integer> parts = new ArrayList<>();
            while (parts.size() < Math.min(width, outParts)) {
                int x = r.nextInt(outParts);
                if (!parts.contains(x)) parts.add(x);
            }
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (buf.size() < n) {
                if (System.nanoTime() > end) throw new IllegalStateException(in + ": " + buf.size() + " of " + n + " records within 60 s");
                for (ConsumerRecord<byte[], byte[]> x : c.poll(Duration.ofMillis(200))) buf.add(x);
            }
            p.beginTransaction();
            List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
            long next = -1;
            for (int j = 0; j < n; j++) {
                ConsumerRecord<byte[], byte[]> x = buf.poll();
                byte[] v = (id + ": " + new String(x.value(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                out.add(new ProducerRecord<>(OUT, parts.get(j % parts.size()), x.key(), v));
                next = x.offset() + 1;
            }
            batch(p, out);
            p.sendOffsetsToTransaction(Map.of(in, new OffsetAndMetadata(next, "")), group);
            return next;
        }
    }

    private Scale() { }
}
