package tsdump.streams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * A real Kafka Streams 4.4.0 application with processing.guarantee=exactly_once_v2, for the streams-eos fixture
 * (scripts/fixtures/v44/streams-eos.mjs runs it against a 4.4.0 broker started by scripts/kafka/start.sh).
 *
 * usage: java -cp ... tsdump.streams.StreamsEos COMMAND BOOTSTRAP [ARGS]
 *   setup N                                   topics se-in, se-out, sl-in, sl-out (2 partitions each), N inputs each
 *   app KIND STATE_DIR HALT_AFTER TIMEOUT_MS  KIND stateful (application se-app: a RocksDB count store, its changelog
 *                                             se-app-counts-changelog) or stateless (sl-app: a mapValues-like
 *                                             processor, no store). A commit is requested every COMMIT_EVERY records;
 *                                             the JVM halts (Runtime.halt) while processing record HALT_AFTER of this
 *                                             run, 2 s after forwarding it (the records are sent, the transaction
 *                                             stays open); HALT_AFTER 0: run until the group's committed offsets reach
 *                                             the inputs' end, then close cleanly
 *   observe STEP                              the broker's answers (Watch)
 * Events are printed one JSON object per line on stdout; Kafka Streams' own log goes to stderr.
 */
public final class StreamsEos {
    static final int COMMIT_EVERY = 5;
    static final String[] TOPICS = { "se-in", "se-out", "sl-in", "sl-out" };

    public static void main(String[] argv) throws Exception {
        String cmd = argv[0];
        String bootstrap = argv[1];
        switch (cmd) {
            case "setup": setup(bootstrap, Integer.parseInt(argv[2])); break;
            case "app": app(bootstrap, argv[2], argv[3], Integer.parseInt(argv[4]), Integer.parseInt(argv[5])); break;
            case "observe": Watch.observe(bootstrap, argv[2]); break;
            default: throw new IllegalArgumentException("unknown command " + cmd);
        }
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    static void setup(String bootstrap, int n) throws Exception {
        try (Admin a = Watch.admin(bootstrap)) {
            List<NewTopic> ts = new ArrayList<>();
            for (String t : TOPICS) ts.add(new NewTopic(t, 2, (short) 1));
            a.createTopics(ts).all().get();
            Thread.sleep(1000);
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        try (KafkaProducer<String, String> prod = new KafkaProducer<>(p)) {
            for (String t : new String[] { "se-in", "sl-in" }) {
                for (int i = 0; i < n; i++) prod.send(new ProducerRecord<>(t, i % 2, "k" + (i % 5), t + ":" + i)).get();
            }
        }
        event("setup", "inputs", n);
    }

    static void app(String bootstrap, String kind, String stateDir, int haltAfter, int timeoutMs) throws Exception {
        boolean stateful = kind.equals("stateful");
        String appId = stateful ? "se-app" : "sl-app";
        String in = stateful ? "se-in" : "sl-in";
        String out = stateful ? "se-out" : "sl-out";
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        // commits when the processor asks for one (Streams requires commit.interval.ms <= transaction.timeout.ms)
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, timeoutMs);
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.producerPrefix("transaction.timeout.ms"), timeoutMs);
        p.put(StreamsConfig.producerPrefix("linger.ms"), 5);
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        StreamsBuilder b = new StreamsBuilder();
        final int[] seen = { 0 };
        if (stateful) {
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("counts"), Serdes.String(), Serdes.Long())
                .withCachingDisabled().withLoggingEnabled(new HashMap<>()));
        }
        b.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
            .process(() -> new Processor<String, String, String, String>() {
                ProcessorContext<String, String> ctx;
                KeyValueStore<String, Long> store;

                @Override
                public void init(ProcessorContext<String, String> c) {
                    ctx = c;
                    if (stateful) store = c.getStateStore("counts");
                }

                @Override
                public void process(Record<String, String> r) {
                    int n = ++seen[0];
                    String v = r.value();
                    if (stateful) {
                        Long old = store.get(r.key());
                        long c = old == null ? 1 : old + 1;
                        store.put(r.key(), c);
                        v = v + "|count=" + c;
                    } else {
                        v = v + "|upper=" + r.key().toUpperCase();
                    }
                    ctx.forward(r.withValue(v));
                    String where = ctx.recordMetadata().map(m -> m.topic() + "-" + m.partition() + "@" + m.offset()).orElse("?");
                    event("processed", "app", appId, "n", n, "input", r.value(), "at", where);
                    if (n == haltAfter) {
                        event("halt", "app", appId, "afterRecords", n, "input", r.value());
                        try { Thread.sleep(2000); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
                        System.out.flush();
                        Runtime.getRuntime().halt(3);
                    }
                    if (n % COMMIT_EVERY == 0) ctx.commit();
                }
            }, stateful ? new String[] { "counts" } : new String[0])
            .to(out, Produced.with(Serdes.String(), Serdes.String()));
        KafkaStreams ks = new KafkaStreams(b.build(), p);
        ks.start();
        event("started", "app", appId, "stateDir", stateDir, "haltAfter", haltAfter, "transactionTimeoutMs", timeoutMs);
        if (haltAfter > 0) {
            Thread.sleep(120_000);
            throw new IllegalStateException(appId + ": did not reach record " + haltAfter + " in 120 s");
        }
        waitCommitted(bootstrap, appId, in, Duration.ofSeconds(120));
        ks.close(Duration.ofSeconds(30));
        event("closed", "app", appId, "records", seen[0]);
    }

    /** Wait until the application's group has committed the end offset of every input partition. */
    static void waitCommitted(String bootstrap, String group, String topic, Duration max) throws Exception {
        long end = System.nanoTime() + max.toNanos();
        try (Admin a = Watch.admin(bootstrap)) {
            Map<TopicPartition, OffsetSpec> q = new HashMap<>();
            for (int i = 0; i < 2; i++) q.put(new TopicPartition(topic, i), OffsetSpec.latest());
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = a.listOffsets(q).all().get();
            for (;;) {
                Map<TopicPartition, OffsetAndMetadata> c = a.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                boolean done = true;
                for (var e : ends.entrySet()) {
                    OffsetAndMetadata m = c.get(e.getKey());
                    if (m == null || m.offset() < e.getValue().offset()) done = false;
                }
                if (done) return;
                if (System.nanoTime() > end) throw new IllegalStateException(group + " did not commit to the end: " + c);
                Thread.sleep(300);
            }
        }
    }

    // ------------------------------------------------------------------ output

    static synchronized void event(String kind, Object... kv) {
        StringBuilder b = new StringBuilder("{\"event\":").append(json(kind));
        for (int i = 0; i + 1 < kv.length; i += 2) b.append(',').append(json(String.valueOf(kv[i]))).append(':').append(json(kv[i + 1]));
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
        if (v instanceof Map) {
            StringBuilder b = new StringBuilder("{");
            for (var e : ((Map<?, ?>) v).entrySet()) {
                b.append(b.length() > 1 ? "," : "").append(json(String.valueOf(e.getKey()))).append(':').append(json(e.getValue()));
            }
            return b.append('}').toString();
        }
        String s = String.valueOf(v);
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    private StreamsEos() { }
}
