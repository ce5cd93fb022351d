import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Oracle of test/format/report-order.test.ts (compiled against scala-library 2.13): each stdin line is a
 * comma-separated sequence of keys; prints the iteration order of a scala.collection.mutable.HashMap after
 * put with each key in turn, as DumpLogSegments.scala (Kafka 3.9-4.2) fills its report maps.
 */
public final class ScalaOrder {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      scala.collection.mutable.HashMap<String, Object> m = new scala.collection.mutable.HashMap<>();
      for (String k : line.split(",")) m.put(k, Boolean.TRUE);
      StringBuilder sb = new StringBuilder();
      scala.collection.Iterator<String> it = m.keysIterator();
      while (it.hasNext()) sb.append(sb.length() == 0 ? "" : ",").append(it.next());
      out.append(sb).append('\n');
    }
    System.out.print(out);
  }
}
