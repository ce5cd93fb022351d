package tsdump.gen;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Java fixture generator: workloads written with the Kafka 4.4.0 Java client against a live broker
 * (started by scripts/kafka/start.sh). scripts/fixtures/v44/*.mjs runs it and then records what the broker and
 * the Java console consumer say.
 *
 * usage: java -cp ... tsdump.gen.Gen COMMAND BOOTSTRAP [ARGS]
 *   txn | open | groups | codecs | meta | random    (see the classes Txn, Groups, Codecs, Meta, Random)
 *   tiered | tiered-wait | tiered-delete                            (Tiered)
 *   cleanup-1 | cleanup-2 | cleanup-open | cleanup-random          (Cleanup, CleanupRandom)
 *   transactions | txrandom | observe               (issue #21's truth: Transactions, TxRandom, Observe)
 *   logstart                                        (LogStart; its DeleteRecords is tiered-delete)
 *   scale                                           (issue #34's truth: Scale, K read-process-write producers)
 * Prints one JSON object per line on stdout (events the fixture script keeps as notes); logs go to stderr.
 */
public final class Gen {
    public static void main(String[] argv) throws Exception {
        String cmd = argv[0];
        String bootstrap = argv[1];
        long seed = argv.length > 2 && argv[2].matches("-?\\d+") ? Long.parseLong(argv[2]) : 1; // tiered*: a topic spec
        switch (cmd) {
            case "txn": Txn.run(bootstrap, seed); break;
            case "open": Txn.open(bootstrap); break; // halts the JVM with the transactions open
            case "groups": Groups.run(bootstrap, seed); break;
            case "codecs": Codecs.run(bootstrap, seed); break;
            case "meta": Meta.run(bootstrap); break;
            case "random": Random.run(bootstrap, seed); break; // the live test's workload
            case "tiered": Tiered.run(bootstrap, argv[2], Long.parseLong(argv[3])); break; // halts, tx-open open
            case "tiered-wait": Tiered.waitTiered(bootstrap, argv[2], Long.parseLong(argv[3]), argv.length > 4 ? argv[4] : null); break;
            case "tiered-delete": Tiered.deleteRecords(bootstrap, argv[2]); break;
            case "cleanup-1": Cleanup.run1(bootstrap, seed); break; // the cleanup fixture's runs (Cleanup.java)
            case "cleanup-2": Cleanup.run2(bootstrap, seed); break;
            case "cleanup-open": Cleanup.open(bootstrap); break; // halts the JVM with the transaction open
            case "cleanup-random": CleanupRandom.run(bootstrap, seed); break; // halts with a transaction open
            case "transactions": Transactions.run(bootstrap, argv); break; // halts with two transactions open
            case "txrandom": TxRandom.run(bootstrap, seed); break; // halts with rnd-open open
            case "observe": Observe.run(bootstrap, argv); break;
            case "logstart": LogStart.run(bootstrap, seed); break; // the log-start fixture (LogStart)
            case "scale": Scale.run(bootstrap, argv); break; // halts with the last OPEN transactions open
            default: throw new IllegalArgumentException("unknown command " + cmd);
        }
        System.out.flush();
        // client threads (Streams, share consumer) must not keep the JVM alive after the workload is done
        Runtime.getRuntime().halt(0);
    }

    // ------------------------------------------------------------------ output

    static synchronized void event(String kind, Object... kv) {
        StringBuilder b = new StringBuilder("{\"event\":").append(q(kind));
        for (int i = 0; i + 1 < kv.length; i += 2) b.append(',').append(q(String.valueOf(kv[i]))).append(':').append(json(kv[i + 1]));
        System.out.println(b.append('}'));
        System.out.flush();
    }

    static String json(Object v) {
        if (v == null) return "null";
        if (v instanceof Number || v instanceof Boolean) return v.toString();
        if (v instanceof List) {
            StringBuilder b = new StringBuilder("[");
            for (Object o : (List<?>) v) b.append(b.length() > 1 ? "," : "").append(json(o));
            return b.append(']').toString();
        }
        return q(String.valueOf(v));
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static void log(String s) {
        System.err.println("[gen] " + s);
    }

    // ------------------------------------------------------------------ clients

    static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", "tsdump-gen-admin");
        return Admin.create(p);
    }

    static void createTopics(String bootstrap, List<NewTopic> topics) throws Exception {
        try (Admin a = admin(bootstrap)) {
            a.createTopics(topics).all().get();
            // wait for every partition to have a leader the producer can reach
            for (NewTopic t : topics) {
                for (int i = 0; i < 100; i++) {
                    try {
                        var d = a.describeTopics(List.of(t.name())).allTopicNames().get().get(t.name());
                        if (d.partitions().stream().allMatch(x -> x.leader() != null)) break;
                    } catch (Exception ignored) { }
                    Thread.sleep(100);
                }
            }
        }
    }

    static NewTopic topic(String name, int partitions, String... configs) {
        Map<String, String> c = new HashMap<>();
        for (int i = 0; i + 1 < configs.length; i += 2) c.put(configs[i], configs[i + 1]);
        return new NewTopic(name, partitions, (short) 1).configs(c);
    }

    /** Producer properties; extra = key, value pairs. */
    static Properties producerProps(String bootstrap, String... extra) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("acks", "all");
        p.put("linger.ms", "1000"); // batches end at flush(), so the record layout is chosen by the workload
        p.put("batch.size", "1048576");
        for (int i = 0; i + 1 < extra.length; i += 2) p.put(extra[i], extra[i + 1]);
        return p;
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap, String... extra) {
        return new KafkaProducer<>(producerProps(bootstrap, extra));
    }

    static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    static ProducerRecord<byte[], byte[]> rec(String topic, int partition, String key, String value) {
        return new ProducerRecord<>(topic, partition, b(key), b(value));
    }

    static ProducerRecord<byte[], byte[]> rec(String topic, int partition, byte[] key, byte[] value, String... headers) {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, partition, key, value);
        for (int i = 0; i + 1 < headers.length; i += 2) r.headers().add(new RecordHeader(headers[i], b(headers[i + 1])));
        return r;
    }

    /** Send, flush (so these records form their own batch) and wait for every ack. */
    static List<RecordMetadata> batch(Producer<byte[], byte[]> p, List<ProducerRecord<byte[], byte[]>> recs) throws Exception {
        List<Future<RecordMetadata>> fs = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> r : recs) fs.add(p.send(r));
        p.flush();
        List<RecordMetadata> out = new ArrayList<>();
        for (Future<RecordMetadata> f : fs) out.add(f.get());
        return out;
    }

    static List<Long> offsets(List<RecordMetadata> md) {
        List<Long> o = new ArrayList<>();
        for (RecordMetadata m : md) o.add(m.offset());
        return o;
    }

    static TransactionDescription describeTxn(Admin a, String id) throws Exception {
        return a.describeTransactions(List.of(id)).description(id).get();
    }

    /** Wait until the coordinator reports the transactional id in the given state (e.g. CompleteAbort). */
    static TransactionDescription waitTxnState(String bootstrap, String id, String state, Duration max) throws Exception {
        long end = System.nanoTime() + max.toNanos();
        try (Admin a = admin(bootstrap)) {
            for (;;) {
                TransactionDescription d = describeTxn(a, id);
                if (d.state().toString().equalsIgnoreCase(state.replace("_", ""))
                        || d.state().name().equalsIgnoreCase(state)) return d;
                if (System.nanoTime() > end) throw new IllegalStateException(id + " still " + d.state() + ", wanted " + state);
                Thread.sleep(200);
            }
        }
    }

    private Gen() { }
}
