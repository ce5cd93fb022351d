package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * Cluster metadata records of 4.4 (KRaft __cluster_metadata): topics (one with configs, one created and
 * deleted, one given more partitions), broker, topic and group configs, a client quota, a SCRAM credential,
 * a producer id block (idempotent producer) and a deleted SCRAM credential.
 */
final class Meta {
    static void run(String bootstrap) throws Exception {
        createTopics(bootstrap, List.of(topic("kraft-a", 2), topic("kraft-b", 1, "cleanup.policy", "compact", "retention.ms", "3600000"),
            topic("kraft-gone", 1)));
        try (Admin a = admin(bootstrap)) {
            a.deleteTopics(List.of("kraft-gone")).all().get();
            a.createPartitions(Map.of("kraft-a", NewPartitions.increaseTo(3))).all().get();
            a.incrementalAlterConfigs(Map.of(
                new ConfigResource(ConfigResource.Type.BROKER, "1"),
                List.of(new AlterConfigOp(new ConfigEntry("log.cleaner.backoff.ms", "20000"), AlterConfigOp.OpType.SET)),
                new ConfigResource(ConfigResource.Type.TOPIC, "kraft-a"),
                List.of(new AlterConfigOp(new ConfigEntry("retention.ms", "7200000"), AlterConfigOp.OpType.SET)),
                new ConfigResource(ConfigResource.Type.GROUP, "kraft-share"),
                List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET))))
                .all().get();
            a.alterClientQuotas(List.of(new ClientQuotaAlteration(new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice")),
                List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1048576.0))))).all().get();
            a.alterUserScramCredentials(List.of(
                new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "alice-secret"),
                new UserScramCredentialUpsertion("bob", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "bob-secret")))
                .all().get();
            a.alterUserScramCredentials(List.of(new org.apache.kafka.clients.admin.UserScramCredentialDeletion("bob", ScramMechanism.SCRAM_SHA_512)))
                .all().get();
        }
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap, "enable.idempotence", "true")) {
            batch(p, List.of(rec("kraft-a", 0, "k", "v")));
        }
        event("meta", "topics", List.of("kraft-a", "kraft-b"), "deleted", List.of("kraft-gone"));
    }

    private Meta() { }
}
