// Kafka's own answers for `cleanup --config` (test/broker/config-flags-oracle.test.ts), run as a single-file
// program on a release's jars: java -cp '.cache/kafka-<v>/lib/*' test/broker/kafka-config-oracle.java ARG...
//   key=value        -> "key=value<TAB>OK|INVALID|UNKNOWN": ConfigDef.parseType and the key's validator, from
//                       LogConfig.configKeys() (topic) or AbstractKafkaConfig.CONFIG_DEF (broker)
//   @k=v,k=v,...     -> "@...<TAB>retention=<ms> roll=<ms>": KafkaConfig.logRetentionTimeMillis and
//                       logRollTimeMillis of a one-node KRaft config with those properties
import java.util.*;
import org.apache.kafka.common.config.ConfigDef;

public class KafkaConfigOracle {
  public static void main(String[] args) {
    Map<String, ConfigDef.ConfigKey> topic = org.apache.kafka.storage.internals.log.LogConfig.configKeys();
    Map<String, ConfigDef.ConfigKey> broker = org.apache.kafka.server.config.AbstractKafkaConfig.CONFIG_DEF.configKeys();
    for (String a : args) {
      if (a.startsWith("@")) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@localhost:9093");
        p.put("listeners", "PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093");
        p.put("controller.listener.names", "CONTROLLER");
        p.put("log.dirs", "/tmp/unused");
        for (String kv : a.substring(1).split(",")) { int i = kv.indexOf('='); p.put(kv.substring(0, i), kv.substring(i + 1)); }
        kafka.server.KafkaConfig c = new kafka.server.KafkaConfig(p);
        System.out.println(a + "\tretention=" + c.logRetentionTimeMillis() + " roll=" + c.logRollTimeMillis());
        continue;
      }
      int i = a.indexOf('=');
      String key = a.substring(0, i), value = a.substring(i + 1);
      ConfigDef.ConfigKey k = topic.containsKey(key) ? topic.get(key) : broker.get(key);
      if (k == null) { System.out.println(a + "\tUNKNOWN"); continue; }
      try {
        Object v = ConfigDef.parseType(key, value, k.type);
        if (k.validator != null) k.validator.ensureValid(key, v);
        System.out.println(a + "\tOK");
      } catch (Exception e) {
        System.out.println(a + "\tINVALID");
      }
    }
  }
}
