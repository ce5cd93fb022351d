package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;

/**
 * Groups of every kind the 4.4 group coordinator knows, so __consumer_offsets and __share_group_state hold
 * the new record types:
 *  - cg-new: consumer group, new protocol (KIP-848, group.protocol=consumer), 2 members (one static,
 *    group.instance.id) on grp-a (3 partitions); commits offsets
 *  - cg-regex: new protocol with a broker-side regex subscription (SubscriptionPattern "grp-regex-.*", KIP-848
 *    ConsumerGroupRegularExpression records) over grp-regex-x and grp-regex-y
 *  - cg-classic: the classic protocol on grp-b
 *  - cg-gone: classic group on grp-b, committed, then deleted (tombstones)
 *  - sg-1: share group (KIP-932) on share-t (2 partitions), explicit acknowledgement: ACCEPT, RELEASE
 *    (redelivered, then accepted) and REJECT; group config share.auto.offset.reset=earliest
 *  - sapp: Kafka Streams 4.4 with group.protocol=streams (KIP-1071), stateless streams-in -> streams-out
 */
final class Groups {
    static void run(String bootstrap, long seed) throws Exception {
        createTopics(bootstrap, List.of(topic("grp-a", 3), topic("grp-b", 1), topic("grp-regex-x", 1), topic("grp-regex-y", 1),
            topic("share-t", 2), topic("streams-in", 1), topic("streams-out", 1)));
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap, "compression.type", "lz4")) {
            List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
            for (int i = 0; i < 12; i++) l.add(rec("grp-a", i % 3, "a" + i, "grp-a value " + i));
            for (int i = 0; i < 4; i++) l.add(rec("grp-b", 0, "b" + i, "grp-b value " + i));
            l.add(rec("grp-regex-x", 0, "x", "regex x"));
            l.add(rec("grp-regex-y", 0, "y", "regex y"));
            for (int i = 0; i < 10; i++) l.add(rec("share-t", i % 2, "s" + i, "share value " + i));
            for (int i = 0; i < 5; i++) l.add(rec("streams-in", 0, "st" + i, "streams value " + i));
            batch(p, l);
        }
        newProtocol(bootstrap);
        classic(bootstrap, "cg-classic");
        classic(bootstrap, "cg-gone");
        try (Admin a = admin(bootstrap)) {
            a.deleteConsumerGroups(List.of("cg-gone")).all().get();
        }
        event("group-deleted", "group", "cg-gone");
        share(bootstrap);
        streams(bootstrap);
    }

    static Properties consumerProps(String bootstrap, String group, String protocol) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", group);
        p.put("group.protocol", protocol);
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        return p;
    }

    /** Poll the consumers in turn (one thread: each KafkaConsumer is used by one thread only) until `want` records. */
    @SafeVarargs
    static int pollUntil(int want, Duration max, KafkaConsumer<byte[], byte[]>... cs) {
        int got = 0;
        long end = System.nanoTime() + max.toNanos();
        while (got < want && System.nanoTime() < end) {
            for (KafkaConsumer<byte[], byte[]> c : cs) {
                ConsumerRecords<byte[], byte[]> r = c.poll(Duration.ofMillis(200));
                got += r.count();
                if (!r.isEmpty()) c.commitSync();
            }
        }
        if (got < want) throw new IllegalStateException("consumed " + got + " of " + want);
        return got;
    }

    static void newProtocol(String bootstrap) {
        Properties p1 = consumerProps(bootstrap, "cg-new", "consumer");
        Properties p2 = consumerProps(bootstrap, "cg-new", "consumer");
        p2.put("group.instance.id", "cg-new-static");
        try (KafkaConsumer<byte[], byte[]> c1 = new KafkaConsumer<>(p1); KafkaConsumer<byte[], byte[]> c2 = new KafkaConsumer<>(p2)) {
            c1.subscribe(List.of("grp-a"));
            c2.subscribe(List.of("grp-a"));
            int n = pollUntil(12, Duration.ofSeconds(60), c1, c2);
            event("group", "group", "cg-new", "protocol", "consumer", "members", 2, "records", n);
        }
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(bootstrap, "cg-regex", "consumer"))) {
            c.subscribe(new SubscriptionPattern("grp-regex-.*"));
            int n = pollUntil(2, Duration.ofSeconds(60), c);
            event("group", "group", "cg-regex", "protocol", "consumer", "subscription", "SubscriptionPattern grp-regex-.*", "records", n);
        }
    }

    static void classic(String bootstrap, String group) {
        Properties p = consumerProps(bootstrap, group, "classic");
        p.put("session.timeout.ms", "10000");
        p.put("heartbeat.interval.ms", "1000");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.subscribe(List.of("grp-b"));
            int n = pollUntil(4, Duration.ofSeconds(60), c);
            event("group", "group", group, "protocol", "classic", "records", n);
        }
    }

    static void share(String bootstrap) throws Exception {
        try (Admin a = admin(bootstrap)) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.GROUP, "sg-1");
            a.incrementalAlterConfigs(Map.of(r, List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                AlterConfigOp.OpType.SET)))).all().get();
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "sg-1");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("share.acknowledgement.mode", "explicit");
        int accepted = 0, rejected = 0, released = 0;
        java.util.Set<String> releasedOnce = new java.util.HashSet<>();
        try (KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(p)) {
            c.subscribe(List.of("share-t"));
            long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (accepted + rejected < 10 && System.nanoTime() < end) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    String k = r.partition() + "/" + r.offset();
                    if (r.offset() == 1 && releasedOnce.add(k)) {
                        c.acknowledge(r, AcknowledgeType.RELEASE); // delivered again (deliveryCount 2)
                        released++;
                    } else if (r.offset() == 3) {
                        c.acknowledge(r, AcknowledgeType.REJECT); // archived, never delivered again
                        rejected++;
                    } else {
                        c.acknowledge(r, AcknowledgeType.ACCEPT);
                        accepted++;
                    }
                }
                c.commitSync();
            }
        }
        if (accepted + rejected < 10) throw new IllegalStateException("share group: " + accepted + " accepted, " + rejected + " rejected of 10");
        event("share-group", "group", "sg-1", "accepted", accepted, "rejected", rejected, "released", released);
    }

    static void streams(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.put("application.id", "sapp");
        p.put("bootstrap.servers", bootstrap);
        p.put("group.protocol", "streams");
        p.put("default.key.serde", Serdes.ByteArray().getClass().getName());
        p.put("default.value.serde", Serdes.ByteArray().getClass().getName());
        p.put("state.dir", Files.createTempDirectory("tsdump-streams").toString());
        p.put("commit.interval.ms", "200");
        StreamsBuilder b = new StreamsBuilder();
        b.<byte[], byte[]>stream("streams-in")
            .mapValues(v -> new String(v, StandardCharsets.UTF_8).toUpperCase().getBytes(StandardCharsets.UTF_8))
            .to("streams-out");
        KafkaStreams s = new KafkaStreams(b.build(), p);
        s.start();
        int got = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(bootstrap, "unused", "classic"))) {
            c.assign(List.of(new TopicPartition("streams-out", 0)));
            long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (got < 5 && System.nanoTime() < end) got += c.poll(Duration.ofMillis(500)).count();
        }
        Thread.sleep(1500); // one more commit interval: the input offsets are committed
        s.close(Duration.ofSeconds(20));
        if (got < 5) throw new IllegalStateException("streams app wrote " + got + " of 5 records");
        event("streams-group", "group", "sapp", "protocol", "streams", "records", got);
    }

    private Groups() { }
}
