package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * All five codecs, compressed by the Java producer itself (compression.type), topics codec-<codec>; and
 * broker-<codec> (topic compression.type=<codec>, the producer sends uncompressed, the broker recompresses).
 * Per topic, one batch each (flush() ends a batch):
 *  1. 6 keyed records with headers (a repeated header key "trace", a non-ASCII key "clé-ü")
 *  2. a null value, a null key, a null key + null value, an empty value
 *  3. byte strings that are not valid UTF-8 (the text tools decode them: Java's replacement rules)
 *  4. 40 compressible records (so the compressed batch is much smaller than the records)
 *  5. a single record; 6. an idempotent batch; 7. a committed and 8. an aborted transactional batch
 */
final class Codecs {
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};

    /** Invalid or unusual UTF-8 (hex): truncated sequences, a surrogate, an overlong form, beyond U+10FFFF. */
    static final String[] ODD = {"eda600", "c328", "f09f98", "80", "eda080", "c0af", "f4908080", "e282", "ff", "f09f9880"};

    static byte[] hex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    static void run(String bootstrap, long seed) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (String c : CODECS) {
            topics.add(topic("codec-" + c, 1));
            if (!c.equals("none")) topics.add(topic("broker-" + c, 1, "compression.type", c));
        }
        createTopics(bootstrap, topics);
        for (String c : CODECS) {
            write(bootstrap, "codec-" + c, c);
            if (!c.equals("none")) write(bootstrap, "broker-" + c, "none");
        }
        event("codecs", "codecs", List.of(CODECS));
    }

    static void write(String bootstrap, String t, String codec) throws Exception {
        String[] comp = {"compression.type", codec};
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap, comp[0], comp[1], "enable.idempotence", "false")) {
            List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                l.add(rec(t, 0, b(i == 3 ? "clé-ü" : "key-" + i), b("value " + i + " of " + t), "trace", "t" + i, "trace", "again", "h-" + i, "x"));
            }
            batch(p, l);
            batch(p, List.of(rec(t, 0, "null-value", null), rec(t, 0, null, "null key"), rec(t, 0, (String) null, null), rec(t, 0, "empty", "")));
            List<ProducerRecord<byte[], byte[]>> odd = new ArrayList<>();
            for (String h : ODD) odd.add(rec(t, 0, hex(h), hex("41" + h + "42")));
            batch(p, odd);
            List<ProducerRecord<byte[], byte[]>> big = new ArrayList<>();
            for (int i = 0; i < 40; i++) big.add(rec(t, 0, "k" + (i % 4), "repetitive payload ".repeat(8) + i));
            batch(p, big);
            batch(p, List.of(rec(t, 0, "single", "one record")));
        }
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap, comp[0], comp[1], "enable.idempotence", "true")) {
            batch(p, List.of(rec(t, 0, "idem-0", "i0"), rec(t, 0, "idem-1", "i1"), rec(t, 0, "idem-2", "i2")));
        }
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap, comp[0], comp[1], "transactional.id", "codec-tx-" + t)) {
            p.initTransactions();
            p.beginTransaction();
            batch(p, List.of(rec(t, 0, "tx-c0", "committed 0"), rec(t, 0, "tx-c1", "committed 1")));
            p.commitTransaction();
            p.beginTransaction();
            batch(p, List.of(rec(t, 0, "tx-a0", "aborted 0"), rec(t, 0, "tx-a1", "aborted 1")));
            p.abortTransaction();
        }
    }

    private Codecs() { }
}
