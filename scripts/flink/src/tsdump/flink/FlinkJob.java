package tsdump.flink;

import java.util.HashMap;
import java.util.Map;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.kafka.sink.HaltingKafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaPartitioner;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * tsdump's Flink fixture job: a bounded DataGeneratorSource of the inputs 0..total-1 (perCheckpoint records per
 * checkpoint, so every checkpoint's transactions hold a known share) mapped to "in-000042" and written by Flink 2.2's
 * KafkaSink in EXACTLY_ONCE to TOPIC, input i to partition i % partitions, in a local MiniCluster with retained
 * checkpoints. With haltOnCall > 0 the JVM halts inside the committer (HaltingKafkaSink); with a restore path it
 * starts from that retained checkpoint. Prints the sink's commit calls as JSON lines; Flink logs to stderr.
 *
 * usage: FlinkJob BOOTSTRAP TOPIC INCREMENTING|POOLING PREFIX PARALLELISM CHECKPOINT_DIR RESTORE_PATH|- HALT_ON_CALL
 *        TOTAL PER_CHECKPOINT TXN_TIMEOUT_MS [DROP_SUBTASK DROP_ON_CALL]
 */
public final class FlinkJob {
    public static void main(String[] a) throws Exception {
        String bootstrap = a[0];
        String topic = a[1];
        TransactionNamingStrategy naming = TransactionNamingStrategy.valueOf(a[2]);
        String prefix = a[3];
        int parallelism = Integer.parseInt(a[4]);
        String checkpointDir = a[5];
        String restore = a[6];
        int haltOnCall = Integer.parseInt(a[7]);
        long total = Long.parseLong(a[8]);
        int perCheckpoint = Integer.parseInt(a[9]);
        String txnTimeoutMs = a[10];
        int dropSubtask = a.length > 12 ? Integer.parseInt(a[11]) : -1;
        int dropOnCall = a.length > 12 ? Integer.parseInt(a[12]) : 0;

        Map<String, String> conf = new HashMap<>();
        conf.put("execution.checkpointing.storage", "filesystem");
        conf.put("execution.checkpointing.dir", "file://" + checkpointDir);
        conf.put("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        conf.put("execution.checkpointing.num-retained", "100");
        conf.put("restart-strategy.type", "none");
        conf.put("rest.bind-port", "0");
        if (!restore.equals("-")) conf.put("execution.state-recovery.path", restore);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, Configuration.fromMap(conf));
        env.enableCheckpointing(1000, CheckpointingMode.EXACTLY_ONCE);

        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, total, RateLimiterStrategy.perCheckpoint(perCheckpoint), Types.LONG);
        KafkaPartitioner<String> byInput = (String record, byte[] key, byte[] value, String target, int[] partitions) ->
            partitions[(int) (Long.parseLong(record.substring(3)) % partitions.length)];
        KafkaSink<String> kafka = KafkaSink.<String>builder()
            .setBootstrapServers(bootstrap)
            .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
            .setTransactionalIdPrefix(prefix)
            .setTransactionNamingStrategy(naming)
            .setProperty("transaction.timeout.ms", txnTimeoutMs)
            .setRecordSerializer(KafkaRecordSerializationSchema.<String>builder()
                .setTopic(topic)
                .setKeySerializationSchema(new SimpleStringSchema())
                .setValueSerializationSchema(new SimpleStringSchema())
                .setPartitioner(byInput)
                .build())
            .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "inputs").uid("inputs")
            .map(i -> String.format("in-%06d", i)).returns(Types.STRING).uid("format")
            .sinkTo(new HaltingKafkaSink<>(kafka, haltOnCall, parallelism, dropSubtask, dropOnCall)).uid("kafka-sink");
        env.execute("tsdump-flink-" + prefix);
        System.out.println("{\"event\":\"finished\",\"at\":" + System.currentTimeMillis() + "}");
        System.out.flush();
        System.exit(0);
    }

    private FlinkJob() { }
}
