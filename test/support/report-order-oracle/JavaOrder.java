import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Oracle of test/format/report-order.test.ts: each stdin line is a comma-separated sequence of keys; prints
 * the iteration order of a java.util.HashMap after computeIfAbsent with each key in turn, as
 * DumpLogSegments.java (Kafka 4.3+) fills its report maps.
 */
public final class JavaOrder {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      Map<String, Object> m = new HashMap<>();
      for (String k : line.split(",")) m.computeIfAbsent(k, x -> Boolean.TRUE);
      out.append(String.join(",", m.keySet())).append('\n');
    }
    System.out.print(out);
  }
}
