package tsdump.streams;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What the broker says after a step of the streams-eos scenario, as one JSON event "observe": listTransactions,
 * describeTransactions of every listed id, describeProducers, ListOffsets (earliest, latest read_uncommitted,
 * latest read_committed), the records each isolation level reads (Java KafkaConsumer, assigned partitions, from the
 * beginning up to the HW / LSO) and the inputs that never reached read_committed output.
 */
final class Watch {
    static final String[][] APPS = { { "se-in", "se-out" }, { "sl-in", "sl-out" } };

    static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", "tsdump-streams-admin");
        return Admin.create(p);
    }

    static void observe(String bootstrap, String step) throws Exception {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("step", step);
        o.put("at", System.currentTimeMillis());
        try (Admin a = admin(bootstrap)) {
            Set<String> topics = a.listTopics().names().get();
            List<TopicPartition> parts = new ArrayList<>();
            for (String t : new String[] { "se-in", "se-out", "se-app-counts-changelog", "sl-in", "sl-out" }) {
                if (topics.contains(t)) for (int i = 0; i < 2; i++) parts.add(new TopicPartition(t, i));
            }
            List<Object> listed = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (TransactionListing l : a.listTransactions().all().get()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("transactionalId", l.transactionalId());
                m.put("producerId", l.producerId());
                m.put("state", l.state().toString());
                listed.add(m);
                ids.add(l.transactionalId());
            }
            o.put("listTransactions", listed);
            List<Object> described = new ArrayList<>();
            if (!ids.isEmpty()) {
                for (var e : new TreeMap<>(a.describeTransactions(ids).all().get()).entrySet()) {
                    TransactionDescription d = e.getValue();
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("transactionalId", e.getKey());
                    m.put("state", d.state().toString());
                    m.put("producerId", d.producerId());
                    m.put("producerEpoch", d.producerEpoch());
                    m.put("transactionTimeoutMs", d.transactionTimeoutMs());
                    m.put("transactionStartTimeMs", d.transactionStartTimeMs().isPresent() ? d.transactionStartTimeMs().getAsLong() : null);
                    List<Object> tps = new ArrayList<>();
                    for (TopicPartition tp : d.topicPartitions()) tps.add(tp.toString());
                    tps.sort((x, y) -> x.toString().compareTo(y.toString()));
                    m.put("topicPartitions", tps);
                    described.add(m);
                }
            }
            o.put("describeTransactions", described);
            List<Object> producers = new ArrayList<>();
            for (var e : a.describeProducers(parts).all().get().entrySet()) {
                for (ProducerState s : e.getValue().activeProducers()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("partition", e.getKey().toString());
                    m.put("producerId", s.producerId());
                    m.put("producerEpoch", s.producerEpoch());
                    m.put("lastSequence", s.lastSequence());
                    m.put("lastTimestamp", s.lastTimestamp());
                    m.put("coordinatorEpoch", s.coordinatorEpoch().isPresent() ? s.coordinatorEpoch().getAsInt() : null);
                    m.put("currentTransactionStartOffset", s.currentTransactionStartOffset().isPresent() ? s.currentTransactionStartOffset().getAsLong() : null);
                    producers.add(m);
                }
            }
            producers.sort((x, y) -> x.toString().compareTo(y.toString()));
            o.put("describeProducers", producers);
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicPartition tp : parts) { earliest.put(tp, OffsetSpec.earliest()); latest.put(tp, OffsetSpec.latest()); }
            var e0 = a.listOffsets(earliest).all().get();
            var hw = a.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get();
            var lso = a.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
            List<Object> offsets = new ArrayList<>();
            Map<String, Set<String>> committedInputs = new HashMap<>();
            Map<String, List<String>> inputs = new HashMap<>();
            for (TopicPartition tp : parts) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("topic", tp.topic());
                m.put("partition", tp.partition());
                m.put("logStartOffset", e0.get(tp).offset());
                m.put("highWatermark", hw.get(tp).offset());
                m.put("lastStableOffset", lso.get(tp).offset());
                List<ConsumerRecord<String, String>> ru = read(bootstrap, tp, IsolationLevel.READ_UNCOMMITTED, hw.get(tp).offset());
                List<ConsumerRecord<String, String>> rc = read(bootstrap, tp, IsolationLevel.READ_COMMITTED, lso.get(tp).offset());
                m.put("readUncommittedRecords", ru.size());
                m.put("readCommittedRecords", rc.size());
                List<Object> hidden = new ArrayList<>();
                Set<Long> rcOffsets = new LinkedHashSet<>();
                for (var r : rc) rcOffsets.add(r.offset());
                for (var r : ru) if (!rcOffsets.contains(r.offset())) hidden.add(r.offset());
                m.put("offsetsOnlyReadUncommitted", hidden);
                offsets.add(m);
                for (var r : rc) {
                    String v = r.value() == null ? "" : r.value();
                    committedInputs.computeIfAbsent(tp.topic(), k -> new LinkedHashSet<>()).add(v.split("\\|")[0]);
                }
                if (tp.topic().endsWith("-in")) for (var r : ru) inputs.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add(r.value());
            }
            o.put("partitions", offsets);
            Map<String, Object> missing = new LinkedHashMap<>();
            for (String[] app : APPS) {
                List<String> ins = inputs.getOrDefault(app[0], List.of());
                if (ins.isEmpty()) continue;
                Set<String> seen = committedInputs.getOrDefault(app[1], Set.of());
                List<Object> never = new ArrayList<>();
                for (String v : ins) if (!seen.contains(v)) never.add(v);
                never.sort((x, y) -> Integer.compare(num(x), num(y)));
                missing.put(app[1], never);
            }
            o.put("inputsNotInReadCommittedOutput", missing);
        }
        StreamsEos.event("observe", "observed", o);
    }

    static int num(Object v) {
        String s = String.valueOf(v);
        return Integer.parseInt(s.substring(s.indexOf(':') + 1));
    }

    /** Records of one partition from its start up to `end` in one isolation level (Java consumer, no group). */
    static List<ConsumerRecord<String, String>> read(String bootstrap, TopicPartition tp, IsolationLevel iso, long end) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("isolation.level", iso.toString());
        p.put("enable.auto.commit", "false");
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (c.position(tp) < end) {
                for (var r : c.poll(Duration.ofMillis(200))) out.add(r);
                if (System.nanoTime() > deadline) throw new IllegalStateException(tp + " " + iso + ": stuck at " + c.position(tp) + " < " + end);
            }
        }
        return out;
    }

    private Watch() { }
}
