package tsdump.gen;

import static tsdump.gen.Gen.b;
import static tsdump.gen.Gen.producerProps;
import static tsdump.gen.Gen.q;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ElectLeadersOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The client side of the multi-broker replica scenarios (scripts/fixtures/v44/replicas-*.mjs): a long-lived
 * process that keeps producers, transactions and an Admin client open while the scenario script stops and
 * starts brokers. It reads one command per line on stdin (fields separated by tabs) and answers each with one
 * JSON line on stdout: {"event":"reply","id":N,"result":...} or {"event":"error","id":N,"message":...}.
 * Every answer comes from the brokers (Admin API, producer callbacks, a Java consumer), never from tsdump.
 *
 *   create TOPIC PARTITIONS ASSIGNMENT CONFIGS   ASSIGNMENT "1,2,3;2,3,1" (replicas per partition, first = preferred
 *                                                leader) or "-"; CONFIGS "k=v,k=v" or "-"
 *   describe TOPIC,...                           leader, replicas, isr, elr, lastKnownElr per partition
 *   offsets TOPIC 0,1,...                        ListOffsets earliest / latest read_uncommitted (HW) / latest
 *                                                read_committed (LSO), with the leader epoch the leader returns
 *   producer NAME k=v,...                        a producer (transactional.id: initTransactions is called)
 *   send NAME TOPIC PARTITION KEYS VALUEPREFIX   KEYS "k1,k2": sent, flushed (one batch), each callback's answer
 *   begin|commit|abort|close NAME                transaction control, closing a producer
 *   sendOffsets NAME GROUP TOPIC PARTITION OFFSET
 *   consume TOPIC PARTITION ISOLATION            a Java consumer from the earliest offset to the end offset of
 *                                                that isolation level (HW or LSO): offsets, keys, leader epochs
 *   elect TYPE TOPIC PARTITIONS                  Admin.electLeaders UNCLEAN | PREFERRED
 *   producers TOPIC PARTITION BROKER             Admin.describeProducers (BROKER -1: the leader)
 *   txn ID                                       Admin.describeTransactions
 *   quit
 */
final class Replicas {
    private final String bootstrap;
    private final Admin admin;
    private final Map<String, KafkaProducer<byte[], byte[]>> producers = new HashMap<>();

    private Replicas(String bootstrap) {
        this.bootstrap = bootstrap;
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", "tsdump-replicas-admin");
        p.put("default.api.timeout.ms", "20000");
        p.put("request.timeout.ms", "5000");
        this.admin = Admin.create(p);
    }

    public static void main(String[] argv) throws Exception {
        Replicas r = new Replicas(argv[0]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long id = 0;
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) continue;
            id++;
            String[] f = line.split("\t", -1);
            if (f[0].equals("quit")) break;
            try {
                reply(id, "reply", "result", r.run(f));
            } catch (Exception e) {
                Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                reply(id, "error", "message", c.getClass().getSimpleName() + ": " + c.getMessage());
            }
        }
        for (KafkaProducer<byte[], byte[]> p : r.producers.values()) p.close(Duration.ofSeconds(2));
        r.admin.close(Duration.ofSeconds(2));
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    private Object run(String[] f) throws Exception {
        switch (f[0]) {
            case "create": return create(f[1], Integer.parseInt(f[2]), f[3], f[4]);
            case "describe": return describe(List.of(f[1].split(",")));
            case "offsets": return offsets(f[1], f[2]);
            case "producer": return producer(f[1], f.length > 2 ? f[2] : "-");
            case "send": return send(f[1], f[2], Integer.parseInt(f[3]), f[4].split(","), f[5]);
            case "begin": producers.get(f[1]).beginTransaction(); return "ok";
            case "commit": producers.get(f[1]).commitTransaction(); return "ok";
            case "abort": producers.get(f[1]).abortTransaction(); return "ok";
            case "close": producers.remove(f[1]).close(Duration.ofSeconds(5)); return "ok";
            case "sendOffsets":
                producers.get(f[1]).sendOffsetsToTransaction(
                    Map.of(new TopicPartition(f[3], Integer.parseInt(f[4])), new OffsetAndMetadata(Long.parseLong(f[5]))),
                    new ConsumerGroupMetadata(f[2]));
                return "ok";
            case "consume": return consume(f[1], Integer.parseInt(f[2]), f[3]);
            case "elect": return elect(f[1], f[2], Integer.parseInt(f[3]));
            case "producers": return describeProducers(f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]));
            case "txn": return describeTxn(f[1]);
            default: throw new IllegalArgumentException("unknown command " + f[0]);
        }
    }

    private Object create(String topic, int partitions, String assignment, String configs) throws Exception {
        Map<String, String> c = new HashMap<>();
        if (!configs.equals("-")) for (String kv : configs.split(",")) c.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        NewTopic t;
        if (assignment.equals("-")) {
            t = new NewTopic(topic, Optional.of(partitions), Optional.empty());
        } else {
            Map<Integer, List<Integer>> a = new HashMap<>();
            String[] parts = assignment.split(";");
            for (int p = 0; p < parts.length; p++) {
                List<Integer> replicas = new ArrayList<>();
                for (String s : parts[p].split(",")) replicas.add(Integer.parseInt(s));
                a.put(p, replicas);
            }
            t = new NewTopic(topic, a);
        }
        admin.createTopics(List.of(t.configs(c))).all().get();
        // wait until every partition has a leader and its whole replica set in the ISR
        for (int i = 0; i < 200; i++) {
            try {
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                if (d.partitions().stream().allMatch(x -> x.leader() != null && x.isr().size() == x.replicas().size())) break;
            } catch (ExecutionException ignored) { }
            Thread.sleep(100);
        }
        return describe(List.of(topic));
    }

    private Object describe(List<String> topics) throws Exception {
        List<Object> out = new ArrayList<>();
        Map<String, TopicDescription> ds = admin.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(10000)).allTopicNames().get();
        for (String t : topics) {
            for (TopicPartitionInfo p : ds.get(t).partitions()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("topic", t);
                m.put("partition", p.partition());
                m.put("leader", p.leader() == null || p.leader().isEmpty() ? -1 : p.leader().id());
                m.put("replicas", ids(p.replicas()));
                m.put("isr", ids(p.isr()));
                m.put("elr", ids(p.elr()));
                m.put("lastKnownElr", ids(p.lastKnownElr()));
                m.put("topicId", ds.get(t).topicId().toString());
                out.add(m);
            }
        }
        return out;
    }

    private static List<Object> ids(List<Node> nodes) {
        List<Object> l = new ArrayList<>();
        if (nodes != null) for (Node n : nodes) l.add(n.id());
        return l;
    }

    /**
     * ListOffsets of the partitions (comma-separated) from their leaders: earliest, latest read_uncommitted (the HW)
     * and latest read_committed (the LSO), with the leader epoch the leader returns; a partition that fails (no
     * leader) answers with its error instead.
     */
    private Object offsets(String topic, String partitions) throws Exception {
        List<TopicPartition> tps = new ArrayList<>();
        for (String p : partitions.split(",")) tps.add(new TopicPartition(topic, Integer.parseInt(p)));
        Map<TopicPartition, Object> start = list(tps, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Object> hw = list(tps, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Object> lso = list(tps, OffsetSpec.latest(), IsolationLevel.READ_COMMITTED);
        List<Object> out = new ArrayList<>();
        for (TopicPartition tp : tps) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("topic", topic);
            m.put("partition", tp.partition());
            Object s = start.get(tp), h = hw.get(tp), l = lso.get(tp);
            if (s instanceof String || h instanceof String || l instanceof String) {
                m.put("error", s instanceof String ? s : h instanceof String ? h : l);
            } else {
                m.put("logStartOffset", ((ListOffsetsResult.ListOffsetsResultInfo) s).offset());
                m.put("highWatermark", ((ListOffsetsResult.ListOffsetsResultInfo) h).offset());
                m.put("lastStableOffset", ((ListOffsetsResult.ListOffsetsResultInfo) l).offset());
                m.put("leaderEpoch", ((ListOffsetsResult.ListOffsetsResultInfo) h).leaderEpoch().orElse(-1));
            }
            out.add(m);
        }
        return out;
    }

    /** One ListOffsets per spec; a failed partition maps to its error's class name. */
    private Map<TopicPartition, Object> list(List<TopicPartition> tps, OffsetSpec spec, IsolationLevel iso) throws InterruptedException {
        Map<TopicPartition, OffsetSpec> q = new HashMap<>();
        for (TopicPartition tp : tps) q.put(tp, spec);
        ListOffsetsResult r = admin.listOffsets(q, new ListOffsetsOptions(iso).timeoutMs(8000));
        Map<TopicPartition, Object> out = new HashMap<>();
        for (TopicPartition tp : tps) {
            try {
                out.put(tp, r.partitionResult(tp).get());
            } catch (ExecutionException e) {
                out.put(tp, e.getCause().getClass().getSimpleName());
            }
        }
        return out;
    }

    private Object producer(String name, String props) {
        List<String> kv = new ArrayList<>();
        // a dead leader must fail a send within seconds, not after the default two minutes
        kv.addAll(List.of("delivery.timeout.ms", "12000", "request.timeout.ms", "4000", "max.block.ms", "15000", "retry.backoff.ms", "200"));
        if (!props.equals("-")) for (String s : props.split(",")) { kv.add(s.substring(0, s.indexOf('='))); kv.add(s.substring(s.indexOf('=') + 1)); }
        Properties p = producerProps(bootstrap, kv.toArray(new String[0]));
        p.put("client.id", "tsdump-replicas-" + name);
        KafkaProducer<byte[], byte[]> pr = new KafkaProducer<>(p);
        if (p.containsKey("transactional.id")) pr.initTransactions();
        producers.put(name, pr);
        return "ok";
    }

    /** One batch: every record sent, then flush; the answer of each record's callback (offset or error). */
    private Object send(String name, String topic, int partition, String[] keys, String valuePrefix) throws Exception {
        KafkaProducer<byte[], byte[]> p = producers.get(name);
        List<Future<RecordMetadata>> fs = new ArrayList<>();
        List<Object> out = new ArrayList<>();
        for (String k : keys) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", k);
            m.put("value", valuePrefix + k);
            out.add(m);
            fs.add(p.send(new ProducerRecord<>(topic, partition, b(k), b(valuePrefix + k)), (md, ex) -> {
                synchronized (m) {
                    if (ex != null) m.put("error", ex.getClass().getSimpleName() + ": " + ex.getMessage());
                    else m.put("offset", md.offset());
                }
            }));
        }
        p.flush();
        for (Future<RecordMetadata> f : fs) {
            try {
                f.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException ignored) {
                // the callback has recorded it
            }
        }
        return out;
    }

    /** A Java consumer (no group) reads the partition from the start to the end offset of the isolation level. */
    private Object consume(String topic, int partition, String isolation) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("isolation.level", isolation);
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        p.put("client.id", "tsdump-replicas-consumer");
        p.put("default.api.timeout.ms", "15000");
        TopicPartition tp = new TopicPartition(topic, partition);
        List<Object> recs = new ArrayList<>();
        Map<String, Object> out = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp); // HW (read_uncommitted) or LSO (read_committed)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (c.position(tp) < end) {
                if (System.nanoTime() > deadline) throw new IllegalStateException(tp + " position " + c.position(tp) + " < end " + end + " after 30 s");
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("offset", r.offset());
                    m.put("key", r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8));
                    m.put("value", r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8));
                    m.put("leaderEpoch", r.leaderEpoch().orElse(-1));
                    recs.add(m);
                }
            }
            out.put("endOffset", end);
            out.put("position", c.position(tp));
        }
        out.put("records", recs);
        return out;
    }

    private Object elect(String type, String topic, int partitions) throws Exception {
        Set<TopicPartition> tps = new java.util.HashSet<>();
        for (int p = 0; p < partitions; p++) tps.add(new TopicPartition(topic, p));
        Map<TopicPartition, Optional<Throwable>> res = admin.electLeaders(ElectionType.valueOf(type), tps, new ElectLeadersOptions().timeoutMs(15000)).partitions().get();
        List<Object> out = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            Optional<Throwable> e = res.get(new TopicPartition(topic, p));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partition", p);
            m.put("error", e == null ? "no answer" : e.map(t -> t.getClass().getSimpleName() + ": " + t.getMessage()).orElse(null));
            out.add(m);
        }
        return out;
    }

    private Object describeProducers(String topic, int partition, int broker) throws Exception {
        TopicPartition tp = new TopicPartition(topic, partition);
        DescribeProducersOptions o = new DescribeProducersOptions().timeoutMs(10000);
        if (broker >= 0) o.brokerId(broker);
        List<Object> out = new ArrayList<>();
        for (ProducerState s : admin.describeProducers(List.of(tp), o).partitionResult(tp).get().activeProducers()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("producerId", s.producerId());
            m.put("producerEpoch", s.producerEpoch());
            m.put("lastSequence", s.lastSequence());
            m.put("lastTimestamp", s.lastTimestamp());
            m.put("coordinatorEpoch", s.coordinatorEpoch().isPresent() ? s.coordinatorEpoch().getAsInt() : null);
            m.put("currentTransactionStartOffset", s.currentTransactionStartOffset().isPresent() ? s.currentTransactionStartOffset().getAsLong() : null);
            out.add(m);
        }
        return out;
    }

    private Object describeTxn(String id) throws Exception {
        TransactionDescription d = admin.describeTransactions(List.of(id)).description(id).get();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("transactionalId", id);
        m.put("state", d.state().toString());
        m.put("producerId", d.producerId());
        m.put("producerEpoch", d.producerEpoch());
        m.put("coordinatorId", d.coordinatorId());
        List<Object> tps = new ArrayList<>();
        for (TopicPartition tp : d.topicPartitions()) tps.add(tp.toString());
        m.put("topicPartitions", tps);
        return m;
    }

    // ------------------------------------------------------------------ output (Gen.event has no nested objects)

    private static synchronized void reply(long id, String kind, String field, Object value) {
        System.out.println("{\"event\":" + q(kind) + ",\"id\":" + id + "," + q(field) + ":" + json(value) + "}");
        System.out.flush();
    }

    static String json(Object v) {
        if (v instanceof Map) {
            StringBuilder b = new StringBuilder("{");
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (b.length() > 1) b.append(',');
                b.append(q(String.valueOf(e.getKey()))).append(':').append(json(e.getValue()));
            }
            return b.append('}').toString();
        }
        if (v instanceof List) {
            StringBuilder b = new StringBuilder("[");
            for (Object o : (List<?>) v) b.append(b.length() > 1 ? "," : "").append(json(o));
            return b.append(']').toString();
        }
        return Gen.json(v);
    }
}
