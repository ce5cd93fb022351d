package tsdump.gen;

import static tsdump.gen.Gen.*;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A log start moved by DeleteRecords (Admin.deleteRecords, the DeleteRecords API: UnifiedLog.maybeIncrementLogStartOffset),
 * for the fixture "log-start". Topic ls (2 partitions, segment.ms 1500 so that pauses of 1.7 s roll segments):
 *  p0, one segment: idempotent batch of 4 (offsets 0-3); ls-a begins and writes 3 records in one batch (4-6); an
 *     idempotent batch of 2 (7-8); ls-a commits (marker 9); ls-b writes 2 (10-11) and aborts; an idempotent batch
 *     of 3 (with transaction version 2 the abort returns before its marker is written: the batch took 12-14, the
 *     ABORT marker 15). Then DeleteRecords before 5: the log start falls inside ls-a's batch.
 *  p1: idempotent batches of 3, 3, 3 and 2 records, one segment each (bases 0, 3, 6, 9). Then DeleteRecords before
 *     7: retention (deleteLogStartOffsetBreachedSegments) deletes the segments 0 and 3; segment 6 stays, below the
 *     log start.
 * The DeleteRecords is `tiered-delete ls:0=5,ls:1=7` (Tiered.deleteRecords), run by the fixture script after it observed.
 */
final class LogStart {
    static final String T = "ls";
    static final long ROLL_PAUSE_MS = 1700;

    static List<ProducerRecord<byte[], byte[]>> recs(String tag, int partition, int n) {
        List<ProducerRecord<byte[], byte[]>> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add(rec(T, partition, tag + "-k" + i, tag + "-v" + i));
        return l;
    }

    static KafkaProducer<byte[], byte[]> tx(String bootstrap, String id) {
        KafkaProducer<byte[], byte[]> p = producer(bootstrap, "transactional.id", id, "transaction.timeout.ms", "60000");
        p.initTransactions();
        return p;
    }

    static void run(String bootstrap, long seed) throws Exception {
        createTopics(bootstrap, List.of(topic(T, 2, "segment.ms", "1500", "retention.ms", "-1")));
        try (KafkaProducer<byte[], byte[]> idem = producer(bootstrap, "enable.idempotence", "true");
             KafkaProducer<byte[], byte[]> a = tx(bootstrap, "ls-a");
             KafkaProducer<byte[], byte[]> b = tx(bootstrap, "ls-b")) {
            event("batch", "partition", 0, "offsets", offsets(batch(idem, recs("p0-idem-1", 0, 4))));
            a.beginTransaction();
            event("batch", "partition", 0, "id", "ls-a", "offsets", offsets(batch(a, recs("p0-a", 0, 3))));
            event("batch", "partition", 0, "offsets", offsets(batch(idem, recs("p0-idem-2", 0, 2))));
            a.commitTransaction();
            event("commit", "id", "ls-a");
            b.beginTransaction();
            event("batch", "partition", 0, "id", "ls-b", "offsets", offsets(batch(b, recs("p0-b", 0, 2))));
            b.abortTransaction();
            event("abort", "id", "ls-b");
            event("batch", "partition", 0, "offsets", offsets(batch(idem, recs("p0-idem-3", 0, 3))));
            int[] sizes = {3, 3, 3, 2};
            for (int i = 0; i < sizes.length; i++) {
                if (i > 0) Thread.sleep(ROLL_PAUSE_MS);
                event("batch", "partition", 1, "offsets", offsets(batch(idem, recs("p1-s" + i, 1, sizes[i]))), "segment", "meant to start a segment");
            }
        }
    }

    private LogStart() { }
}
