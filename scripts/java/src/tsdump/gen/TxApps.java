package tsdump.gen;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Read-process-write applications of the `transactions` scenario: a real consumer group reads the input topic, a
 * transactional LoggedProducer writes one output record per input record (same partition number in the output topic)
 * and ends each transaction as its Step says. How the group's offsets are committed is the application's Mode.
 */
final class TxApps {
    enum Mode {
        /** sendOffsetsToTransaction in every transaction (exactly-once read-process-write) */
        OFFSETS_IN_TRANSACTION,
        /** also consumer.commitSync of the same offsets before each transaction: "mixed commits" */
        MIXED,
        /** never sendOffsetsToTransaction; consumer.commitSync after each commit, except after the last (a crash) */
        NO_OFFSETS,
    }

    /** One transaction: input records to process per input partition (index = partition), and its end. */
    record Step(int[] counts, boolean commit) {
        static Step commit(int... counts) {
            return new Step(counts, true);
        }

        static Step abort(int... counts) {
            return new Step(counts, false);
        }
    }

    /** The commit of a transaction the coordinator has already aborted (fenced, timed out) must fail. */
    static void commitMustFail(LoggedProducer p, String what) {
        try {
            p.commitTransaction();
        } catch (RuntimeException expected) {
            return; // ProducerFencedException, InvalidProducerEpochException or InvalidTxnStateException: in the log as clientError
        }
        throw new IllegalStateException(what + ": the commit succeeded");
    }

    static Properties consumerProps(String bootstrap, String group, String protocol) {
        Properties p = Groups.consumerProps(bootstrap, group, protocol);
        p.put("isolation.level", "read_committed");
        return p;
    }

    /** Subscribe and poll until `want` records of the topic have arrived; returns them per partition in offset order. */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> pollAll(KafkaConsumer<byte[], byte[]> c, String topic, int want, Duration max) {
        c.subscribe(List.of(topic));
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> out = new HashMap<>();
        int got = 0;
        long end = System.nanoTime() + max.toNanos();
        while (got < want) {
            if (System.nanoTime() > end) throw new IllegalStateException(topic + ": " + got + " of " + want + " records within " + max);
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                out.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r);
                got++;
            }
        }
        return out;
    }

    static List<ProducerRecord<byte[], byte[]>> recs(String topic, int partition, String tag, int n) {
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add(Gen.rec(topic, partition, tag + "-" + i, tag + " " + i));
        return l;
    }

    static void commitSync(TxLog log, String app, String group, KafkaConsumer<byte[], byte[]> c, Map<TopicPartition, OffsetAndMetadata> offsets) {
        c.commitSync(offsets);
        log.consumerCommit(app, group, offsets, System.currentTimeMillis());
    }

    /** Run one application (its consumer group reads `in` whole first) through its steps, then close it. */
    static void run(TxLog log, String bootstrap, String app, String transactionalId, String group, String protocol,
                    Mode mode, String in, String out, int inputRecords, List<Step> steps) throws Exception {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(bootstrap, group, protocol))) {
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> input = pollAll(c, in, inputRecords, Duration.ofSeconds(90));
            LoggedProducer p = LoggedProducer.create(log, app, bootstrap, transactionalId, 60000);
            p.initTransactions();
            int[] pos = new int[steps.get(0).counts().length];
            for (int s = 0; s < steps.size(); s++) {
                Step step = steps.get(s);
                boolean lastStep = s == steps.size() - 1;
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (int part = 0; part < step.counts().length; part++) {
                    if (step.counts()[part] > 0) offsets.put(new TopicPartition(in, part), new OffsetAndMetadata(pos[part] + step.counts()[part], app + " step " + s));
                }
                if (mode == Mode.MIXED) commitSync(log, app, group, c, offsets); // outside the transaction, before its outcome is known
                p.beginTransaction();
                // the step's output in one flush: one batch per partition, the partitions added to the transaction together
                List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
                for (int part = 0; part < step.counts().length; part++) {
                    for (ConsumerRecord<byte[], byte[]> r : input.get(part).subList(pos[part], pos[part] + step.counts()[part])) {
                        l.add(new ProducerRecord<>(out, part, r.key(), (app + ": " + new String(r.value(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
                    }
                }
                if (!l.isEmpty()) Gen.batch(p, l);
                ConsumerGroupMetadata gm = c.groupMetadata();
                if (mode != Mode.NO_OFFSETS) p.sendOffsetsToTransaction(offsets, gm);
                if (step.commit()) p.commitTransaction();
                else p.abortTransaction();
                if (mode == Mode.NO_OFFSETS && step.commit()) {
                    if (lastStep) p.last().note("crash before the consumer's commitSync: the group's offsets stay behind this transaction's output");
                    else commitSync(log, app, group, c, offsets);
                }
                if (mode == Mode.MIXED && !step.commit()) p.last().note("the group's offsets were committed by commitSync before this transaction aborted");
                // a committed step moves on; after an abort an exactly-once application resumes from its group's
                // committed offsets (the same input again), a mixed-commit one from the offsets commitSync already moved
                if (step.commit() || mode == Mode.MIXED) {
                    for (int part = 0; part < pos.length; part++) pos[part] += step.counts()[part];
                }
            }
            p.close();
        }
    }

    private TxApps() { }
}
