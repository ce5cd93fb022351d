package tsdump.flink;

import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Creates the job's output topic (usage: CreateTopic BOOTSTRAP TOPIC PARTITIONS) and waits until it answers. */
public final class CreateTopic {
    public static void main(String[] a) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", a[0]);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(a[1], Integer.parseInt(a[2]), (short) 1))).all().get();
            admin.describeTopics(List.of(a[1])).allTopicNames().get();
        }
        System.out.println("{\"event\":\"topic\",\"topic\":\"" + a[1] + "\",\"partitions\":" + a[2] + "}");
    }

    private CreateTopic() { }
}
