package tsdump.gen;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.internals.ProducerIdAndEpoch;

/**
 * A real KafkaProducer (4.4.0 client) behind the Producer interface that writes every transaction it runs into a
 * TxLog: begin, each acknowledged record (topic, partition, offset), the offsets sent with
 * sendOffsetsToTransaction, the end. Used by the generator's own applications and, through a KafkaClientSupplier, by
 * Kafka Streams (so the Streams application's transactions are logged the same way).
 *
 * The producer id and epoch "as the client saw it" are the TransactionManager's producerIdAndEpoch() (package-private in
 * kafka-clients, read by reflection: the public API does not expose them), taken at beginTransaction; the transaction
 * version is TransactionManager.isTransactionV2Enabled() (public), 2 when true, else 1.
 */
final class LoggedProducer implements Producer<byte[], byte[]> {
    private final KafkaProducer<byte[], byte[]> p;
    private final TxLog log;
    private final String app;
    private final String transactionalId;
    private final int timeoutMs;
    private volatile TxLog.Tx current;
    private volatile TxLog.Tx last;

    LoggedProducer(TxLog log, String app, Map<String, Object> config) {
        this.p = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        this.log = log;
        this.app = app;
        this.transactionalId = (String) config.get("transactional.id");
        // ProducerConfig's default transaction.timeout.ms is 60000 (Kafka Streams sets 10000 for exactly-once)
        this.timeoutMs = Integer.parseInt(String.valueOf(config.getOrDefault("transaction.timeout.ms", "60000")));
    }

    /** A transactional producer of the generator (Gen.producerProps + transactional.id + transaction.timeout.ms + extra). */
    static LoggedProducer create(TxLog log, String app, String bootstrap, String transactionalId, int timeoutMs, String... extra) {
        Map<String, Object> c = new HashMap<>();
        Gen.producerProps(bootstrap, extra).forEach((k, v) -> c.put((String) k, v));
        c.put("transactional.id", transactionalId);
        c.put("transaction.timeout.ms", String.valueOf(timeoutMs));
        return new LoggedProducer(log, app, c);
    }

    String transactionalId() {
        return transactionalId;
    }

    /** The transaction begun last (also after it ended). */
    TxLog.Tx last() {
        return last;
    }

    private Object transactionManager() {
        try {
            Field f = KafkaProducer.class.getDeclaredField("transactionManager");
            f.setAccessible(true);
            return f.get(p);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kafka-clients changed: no KafkaProducer.transactionManager", e);
        }
    }

    /** The client's producer id and epoch (TransactionManager.producerIdAndEpoch()). */
    ProducerIdAndEpoch producerIdAndEpoch() {
        try {
            Object tm = transactionManager();
            Method m = tm.getClass().getDeclaredMethod("producerIdAndEpoch");
            m.setAccessible(true);
            return (ProducerIdAndEpoch) m.invoke(tm);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kafka-clients changed: no TransactionManager.producerIdAndEpoch()", e);
        }
    }

    /** 2 if the client runs transaction version 2 (KIP-890 part 2) with this broker, else 1. */
    int transactionVersion() {
        try {
            Object tm = transactionManager();
            return (Boolean) tm.getClass().getMethod("isTransactionV2Enabled").invoke(tm) ? 2 : 1;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("kafka-clients changed: no TransactionManager.isTransactionV2Enabled()", e);
        }
    }

    @Override
    public void initTransactions() {
        p.initTransactions();
        ProducerIdAndEpoch pe = producerIdAndEpoch();
        log.session(app, transactionalId, pe.producerId, pe.epoch, transactionVersion(), timeoutMs, System.currentTimeMillis());
    }

    @Override
    public void beginTransaction() {
        long at = System.currentTimeMillis();
        p.beginTransaction();
        ProducerIdAndEpoch pe = producerIdAndEpoch();
        current = log.begin(app, transactionalId, pe.producerId, pe.epoch, transactionVersion(), at);
        last = current;
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        final TxLog.Tx t = current;
        return p.send(record, (md, e) -> {
            if (e == null && t != null) t.acked(md.topic(), md.partition(), md.offset());
            if (callback != null) callback.onCompletion(md, e);
        });
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
        TxLog.Tx t = current;
        p.sendOffsetsToTransaction(offsets, groupMetadata);
        if (t != null) t.offsetsSent(groupMetadata.groupId(), TxLog.partitionFor(groupMetadata.groupId(), log.offsetsPartitions), offsets);
    }

    @Override
    public void commitTransaction() {
        end(true);
    }

    @Override
    public void abortTransaction() {
        end(false);
    }

    private void end(boolean commit) {
        TxLog.Tx t = current;
        try {
            if (commit) p.commitTransaction();
            else p.abortTransaction();
        } catch (RuntimeException e) {
            if (t != null) t.clientError(e);
            current = null;
            throw e;
        }
        if (t != null) t.end(commit ? "committed" : "aborted", System.currentTimeMillis());
        current = null;
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        p.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        p.unregisterMetricFromSubscription(metric);
    }

    @Override
    public void flush() {
        p.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return p.partitionsFor(topic);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return p.metrics();
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return p.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        p.close();
    }

    @Override
    public void close(Duration timeout) {
        p.close(timeout);
    }
}
