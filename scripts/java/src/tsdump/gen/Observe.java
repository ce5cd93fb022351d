package tsdump.gen;

import static tsdump.gen.Gen.admin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.internals.AppInfoParser;

/**
 * What the broker says about transactions, through the 4.4.0 Admin client, as one JSON line
 * {"event":"observe", ...} (stored in expected.json by the `transactions` scenario, compared with the generator's log
 * by test/broker/transactions-generator.test.ts):
 *   features              describeFeatures: finalized levels (transaction.version) and supported ranges
 *   listTransactions      every transactional id the coordinators know: state, producerId
 *   describeTransactions  each of those: state, producerId, producerEpoch, transactionTimeoutMs,
 *                         transactionStartTimeMs (null when none), topicPartitions, coordinatorId
 *   groups                listGroups, and for each group listConsumerGroupOffsets, once plain (requireStable false)
 *                         and once with requireStable true (a pending transactional offset commit is an error there)
 *   producers             describeProducers for every partition of the given topics and of __consumer_offsets
 * usage: Gen observe BOOTSTRAP 0 TOPIC[,TOPIC...]
 */
final class Observe {
    static void run(String bootstrap, String[] argv) throws Exception {
        List<String> topics = new ArrayList<>(argv.length > 3 && !argv[3].isEmpty() ? List.of(argv[3].split(",")) : List.of());
        topics.add("__consumer_offsets");
        try (Admin a = admin(bootstrap)) {
            Map<String, Object> out = Json.obj("event", "observe", "at", System.currentTimeMillis(), "clientVersion", AppInfoParser.getVersion());
            out.put("features", features(a));
            List<Object> listed = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            List<TransactionListing> ls = new ArrayList<>(a.listTransactions().all().get());
            ls.sort(Comparator.comparing(TransactionListing::transactionalId));
            for (TransactionListing l : ls) {
                listed.add(Json.obj("transactionalId", l.transactionalId(), "producerId", l.producerId(), "state", l.state().toString()));
                ids.add(l.transactionalId());
            }
            out.put("listTransactions", listed);
            List<Object> described = new ArrayList<>();
            if (!ids.isEmpty()) {
                Map<String, TransactionDescription> ds = a.describeTransactions(ids).all().get();
                for (String id : ids) described.add(describe(id, ds.get(id)));
            }
            out.put("describeTransactions", described);
            out.put("groups", groups(a));
            out.put("producers", producers(a, topics));
            System.out.println(Json.write(out));
        }
    }

    static Map<String, Object> features(Admin a) throws Exception {
        var md = a.describeFeatures().featureMetadata().get();
        Map<String, Object> fin = new TreeMap<>();
        md.finalizedFeatures().forEach((k, v) -> fin.put(k, Json.obj("minVersionLevel", v.minVersionLevel(), "maxVersionLevel", v.maxVersionLevel())));
        Map<String, Object> sup = new TreeMap<>();
        md.supportedFeatures().forEach((k, v) -> sup.put(k, Json.obj("minVersion", v.minVersion(), "maxVersion", v.maxVersion())));
        return Json.obj("finalized", fin, "supported", sup);
    }

    static Map<String, Object> describe(String id, TransactionDescription d) {
        List<Object> tps = new ArrayList<>();
        for (TopicPartition tp : sorted(d.topicPartitions())) tps.add(Json.obj("topic", tp.topic(), "partition", tp.partition()));
        return Json.obj("transactionalId", id, "state", d.state().toString(), "producerId", d.producerId(),
            "producerEpoch", d.producerEpoch(), "transactionTimeoutMs", d.transactionTimeoutMs(),
            "transactionStartTimeMs", d.transactionStartTimeMs().isPresent() ? d.transactionStartTimeMs().getAsLong() : null,
            "topicPartitions", tps, "coordinatorId", d.coordinatorId());
    }

    static List<Object> groups(Admin a) throws Exception {
        List<GroupListing> gs = new ArrayList<>(a.listGroups().all().get());
        gs.sort(Comparator.comparing(GroupListing::groupId));
        List<Object> out = new ArrayList<>();
        for (GroupListing g : gs) {
            Map<String, Object> m = Json.obj("groupId", g.groupId(), "type", g.type().map(Object::toString).orElse(null),
                "protocol", g.protocol(), "state", g.groupState().map(Object::toString).orElse(null));
            m.put("offsets", offsets(a.listConsumerGroupOffsets(g.groupId()).partitionsToOffsetAndMetadata().get()));
            try {
                m.put("stableOffsets", offsets(a.listConsumerGroupOffsets(g.groupId(), new ListConsumerGroupOffsetsOptions().requireStable(true))
                    .partitionsToOffsetAndMetadata().get()));
            } catch (ExecutionException e) {
                m.put("stableOffsetsError", e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage());
            }
            out.add(m);
        }
        return out;
    }

    static List<Object> offsets(Map<TopicPartition, OffsetAndMetadata> o) {
        List<Object> l = new ArrayList<>();
        for (TopicPartition tp : sorted(o.keySet())) {
            OffsetAndMetadata om = o.get(tp);
            if (om == null) continue;
            l.add(Json.obj("topic", tp.topic(), "partition", tp.partition(), "offset", om.offset(), "metadata", om.metadata(),
                "leaderEpoch", om.leaderEpoch().orElse(null)));
        }
        return l;
    }

    static List<Object> producers(Admin a, List<String> topics) throws Exception {
        // a topic that does not exist (yet: __consumer_offsets before any group) has no producers to describe
        java.util.Set<String> existing = a.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names().get();
        topics = topics.stream().filter(existing::contains).collect(java.util.stream.Collectors.toList());
        var desc = a.describeTopics(topics).allTopicNames().get();
        List<TopicPartition> tps = new ArrayList<>();
        for (String t : topics) for (var p : desc.get(t).partitions()) tps.add(new TopicPartition(t, p.partition()));
        Map<TopicPartition, PartitionProducerState> st = a.describeProducers(tps).all().get();
        List<Object> out = new ArrayList<>();
        for (TopicPartition tp : tps) {
            List<ProducerState> ps = new ArrayList<>(st.get(tp).activeProducers());
            ps.sort(Comparator.comparingLong(ProducerState::producerId));
            List<Object> l = new ArrayList<>();
            for (ProducerState p : ps) {
                l.add(Json.obj("producerId", p.producerId(), "producerEpoch", p.producerEpoch(), "lastSequence", p.lastSequence(),
                    "lastTimestamp", p.lastTimestamp(),
                    "coordinatorEpoch", p.coordinatorEpoch().isPresent() ? p.coordinatorEpoch().getAsInt() : null,
                    "currentTransactionStartOffset", p.currentTransactionStartOffset().isPresent() ? p.currentTransactionStartOffset().getAsLong() : null));
            }
            out.add(Json.obj("topic", tp.topic(), "partition", tp.partition(), "activeProducers", l));
        }
        return out;
    }

    static List<TopicPartition> sorted(java.util.Collection<TopicPartition> c) {
        List<TopicPartition> l = new ArrayList<>(c);
        l.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        return l;
    }

    private Observe() { }
}
