package tsdump;

import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

/**
 * Runs kafka-dump-log (DumpLogSegments of whatever Kafka release is on the classpath) many times in ONE JVM:
 * one JVM start per file and mode (~0.5-1 s each) made dumping 6 releases over every fixture take most of an
 * hour on 2 cores. Each job gets its own stdout/stderr file and the exit code kafka-dump-log.sh would have had.
 *
 * Why this gives the tool's exact bytes: the tool only prints to System.out (Java DumpLogSegments, 4.3+) or
 * scala.Console.out (Scala kafka.tools.DumpLogSegments, up to 4.2, whose println does not follow System.setOut,
 * hence Console.withOut); its exit paths go through Kafka's Exit class, which is pointed at an exception here;
 * an exception out of main is printed the way the JVM's default handler prints it (exit code 1).
 * scripts/fixtures/dump-releases.mjs checks this against separate kafka-dump-log.sh runs (the 3.9.1 fixtures'
 * dump/ files were written one JVM per file).
 *
 * usage: java -cp RELEASE_LIB/*:CLASSES tsdump.DumpRunner MAIN_CLASS JOBS_FILE
 *   run with the working directory the tool's relative --files paths are relative to (one JVM per fixture)
 *   JOBS_FILE: one job per line, tab separated: stdout file, stderr file (written only if non-empty), tool args...
 *   prints one line per job on stdout: "<job index>\t<exit code>"
 */
public final class DumpRunner {
    static final class ExitCalled extends RuntimeException {
        final int code;
        ExitCalled(int code) { super(null, null, false, false); this.code = code; }
    }

    public static void main(String[] argv) throws Exception {
        Class<?> tool = Class.forName(argv[0]);
        Method main = tool.getMethod("main", String[].class);
        List<String> lines = Files.readAllLines(Paths.get(argv[1]), StandardCharsets.UTF_8);
        hookExit();
        PrintStream realOut = System.out;
        PrintStream realErr = System.err;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isEmpty()) continue;
            String[] f = lines.get(i).split("\t", -1);
            String[] args = Arrays.copyOfRange(f, 2, f.length);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream pout = new PrintStream(out, false, StandardCharsets.UTF_8);
            PrintStream perr = new PrintStream(err, true, StandardCharsets.UTF_8);
            int code = 0;
            System.setOut(pout);
            System.setErr(perr);
            try {
                withScalaConsole(pout, perr, () -> invoke(main, args));
            } catch (ExitCalled e) {
                code = e.code;
            } catch (Throwable t) {
                Throwable c = t instanceof InvocationTargetException ? t.getCause() : t;
                if (c instanceof ExitCalled) code = ((ExitCalled) c).code;
                else {
                    perr.print("Exception in thread \"main\" ");
                    c.printStackTrace(perr);
                    code = 1;
                }
            } finally {
                pout.flush();
                perr.flush();
                System.setOut(realOut);
                System.setErr(realErr);
            }
            write(f[0], out.toByteArray());
            if (err.size() > 0) write(f[1], err.toByteArray());
            else Files.deleteIfExists(Paths.get(f[1]));
            realOut.println(i + "\t" + code);
            realOut.flush();
        }
        realOut.flush();
        Runtime.getRuntime().halt(0); // tool threads (if any) must not keep the JVM alive
    }

    interface Body { void run() throws Exception; }

    static void invoke(Method main, String[] args) throws Exception {
        main.invoke(null, (Object) args);
    }

    /** Run body with scala.Console.out/err redirected too, when the release has a Scala library. */
    static void withScalaConsole(PrintStream out, PrintStream err, Body body) throws Exception {
        Class<?> console;
        Class<?> fn0;
        try {
            console = Class.forName("scala.Console");
            fn0 = Class.forName("scala.Function0");
        } catch (ClassNotFoundException e) {
            body.run();
            return;
        }
        Method withOut = console.getMethod("withOut", OutputStream.class, fn0);
        Method withErr = console.getMethod("withErr", OutputStream.class, fn0);
        Object inner = fn0Proxy(fn0, body);
        Object outer = Proxy.newProxyInstance(fn0.getClassLoader(), new Class<?>[] {fn0}, (p, m, a) -> {
            if (m.getName().equals("apply")) return withErr.invoke(null, err, inner);
            return m.getName().equals("toString") ? "fn0" : null;
        });
        try {
            withOut.invoke(null, out, outer);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            while (c instanceof InvocationTargetException || c instanceof java.lang.reflect.UndeclaredThrowableException) {
                c = c.getCause();
            }
            if (c instanceof Exception) throw (Exception) c;
            throw (Error) c;
        }
    }

    static Object fn0Proxy(Class<?> fn0, Body body) {
        return Proxy.newProxyInstance(fn0.getClassLoader(), new Class<?>[] {fn0}, (p, m, a) -> {
            if (m.getName().equals("apply")) {
                body.run();
                return null;
            }
            return m.getName().equals("toString") ? "fn0" : null;
        });
    }

    /** Kafka's Exit (org.apache.kafka.common.utils.Exit up to 4.3, ...utils.internals.Exit in 4.4): exit/halt throw. */
    static void hookExit() throws Exception {
        Class<?> exit = null;
        for (String n : new String[] {"org.apache.kafka.common.utils.Exit", "org.apache.kafka.common.utils.internals.Exit"}) {
            try { exit = Class.forName(n); break; } catch (ClassNotFoundException ignored) { }
        }
        if (exit == null) throw new IllegalStateException("no Kafka Exit class on the classpath");
        Class<?> proc = null;
        for (Class<?> c : exit.getDeclaredClasses()) if (c.getSimpleName().equals("Procedure")) proc = c;
        Object throwing = Proxy.newProxyInstance(proc.getClassLoader(), new Class<?>[] {proc}, (p, m, a) -> {
            if (m.getName().equals("execute")) throw new ExitCalled((Integer) a[0]);
            return m.getName().equals("toString") ? "exit" : null;
        });
        exit.getMethod("setExitProcedure", proc).invoke(null, throwing);
        exit.getMethod("setHaltProcedure", proc).invoke(null, throwing);
    }

    static void write(String file, byte[] b) throws Exception {
        Path p = Paths.get(file);
        Files.createDirectories(p.toAbsolutePath().getParent());
        try (FileOutputStream o = new FileOutputStream(p.toFile())) { o.write(b); }
    }

    private DumpRunner() { }
}
