import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The oracle of test/bytes/java-utf8.test.ts: decodes each stdin line (bytes as hex) the way Kafka's
 * org.apache.kafka.tools.api.StringDecoder does, new String(bytes, UTF_8), and prints the resulting
 * UTF-16 code units as 4-digit hex, one line per input line.
 */
public final class Utf8Oracle {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    PrintStream out = new PrintStream(System.out, false, "US-ASCII");
    StringBuilder sb = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      byte[] bytes = new byte[line.length() / 2];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) Integer.parseInt(line.substring(2 * i, 2 * i + 2), 16);
      }
      String s = new String(bytes, StandardCharsets.UTF_8);
      sb.setLength(0);
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        for (int shift = 12; shift >= 0; shift -= 4) sb.append(HEX[(c >> shift) & 0xF]);
      }
      out.println(sb);
    }
    out.flush();
  }
}
