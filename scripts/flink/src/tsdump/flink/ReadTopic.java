package tsdump.flink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What a consumer of each isolation level reads from a topic, and ListOffsets in both isolation levels (Admin): one
 * JSON line {"event":"read", "offsets":[{partition, earliest, latestReadUncommitted, latestReadCommitted}],
 * "readCommitted":[[partition, offset, value]...], "readUncommitted":[...]}. No group, nothing committed: each
 * partition is assigned and read from the beginning up to the isolation level's end offset.
 * usage: ReadTopic BOOTSTRAP TOPIC PARTITIONS
 */
public final class ReadTopic {
    public static void main(String[] a) throws Exception {
        String bootstrap = a[0];
        String topic = a[1];
        int n = Integer.parseInt(a[2]);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < n; p++) tps.add(new TopicPartition(topic, p));
        StringBuilder out = new StringBuilder("{\"event\":\"read\",\"at\":").append(System.currentTimeMillis()).append(",\"topic\":\"").append(topic).append("\",\"offsets\":[");
        Properties ap = new Properties();
        ap.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(ap)) {
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicPartition tp : tps) { earliest.put(tp, OffsetSpec.earliest()); latest.put(tp, OffsetSpec.latest()); }
            var e = admin.listOffsets(earliest).all().get();
            var ru = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get();
            var rc = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
            for (TopicPartition tp : tps) {
                out.append(tp.partition() == 0 ? "" : ",").append("{\"partition\":").append(tp.partition())
                    .append(",\"earliest\":").append(e.get(tp).offset())
                    .append(",\"latestReadUncommitted\":").append(ru.get(tp).offset())
                    .append(",\"latestReadCommitted\":").append(rc.get(tp).offset()).append('}');
            }
        }
        out.append(']');
        for (String level : new String[] {"read_committed", "read_uncommitted"}) {
            out.append(",\"").append(level.equals("read_committed") ? "readCommitted" : "readUncommitted").append("\":[");
            boolean first = true;
            for (String[] r : read(bootstrap, tps, level)) {
                out.append(first ? "" : ",").append('[').append(r[0]).append(',').append(r[1]).append(",\"").append(r[2]).append("\"]");
                first = false;
            }
            out.append(']');
        }
        System.out.println(out.append('}'));
    }

    static List<String[]> read(String bootstrap, List<TopicPartition> tps, String level) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("isolation.level", level);
        p.put("enable.auto.commit", "false");
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        List<String[]> rows = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps); // the LSO for read_committed, the HW otherwise
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline) {
                boolean done = true;
                for (TopicPartition tp : tps) if (c.position(tp) < end.get(tp)) done = false;
                if (done) break;
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    rows.add(new String[] {String.valueOf(r.partition()), String.valueOf(r.offset()), r.value()});
                }
            }
        }
        rows.sort((x, y) -> x[0].equals(y[0]) ? Long.compare(Long.parseLong(x[1]), Long.parseLong(y[1])) : x[0].compareTo(y[0]));
        return rows;
    }

    private ReadTopic() { }
}
