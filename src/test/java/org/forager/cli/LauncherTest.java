package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher script ({@code ./forager}) against the code it tunes the JVM for. */
class LauncherTest {

  private static final Pattern STAGE = Pattern.compile("(org\\.forager\\.[\\w.]+)::(\\w+)");

  /**
   * The methods the launcher keeps C2 from inlining exist: a renamed one would leave its command
   * matching nothing, silently (the launcher passes {@code CompileCommand=quiet}).
   */
  @Test
  void everyMethodKeptFromInliningExists() throws IOException, ClassNotFoundException {
    String script = Files.readString(Path.of("forager"));
    int from = script.indexOf("for stage in ");
    int to = script.indexOf("; do", from);
    assertTrue(from >= 0 && to > from, "the launcher's list of stages compiled apart");
    Matcher m = STAGE.matcher(script.substring(from, to));
    List<String> missing = new ArrayList<>();
    int named = 0;
    while (m.find()) {
      named++;
      Class<?> type = Class.forName(m.group(1));
      String name = m.group(2);
      if (Arrays.stream(type.getDeclaredMethods()).map(Method::getName).noneMatch(name::equals)) {
        missing.add(m.group());
      }
    }
    assertTrue(named >= 1, "stages named");
    assertEquals(List.of(), missing, "methods the launcher names that do not exist");
  }

  /**
   * bin/java-home.sh reads a JDK's major version from its release file with the shell's builtins, in
   * each form JDKs write it, and asks the JDK itself only when the file does not say.
   */
  @Test
  void theJdksVersionIsReadFromItsReleaseFile(@TempDir Path dir) throws Exception {
    assertEquals("21", versionOf(fakeJdk(dir.resolve("a"), "JAVA_VERSION=\"21.0.2\"")));
    assertEquals("8", versionOf(fakeJdk(dir.resolve("b"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"1.8.0_402\"")));
    assertEquals("25", versionOf(fakeJdk(dir.resolve("c"), "JAVA_VERSION=\"25-ea\"\nOS_NAME=\"Linux\"")));
    assertEquals("26", versionOf(fakeJdk(dir.resolve("d"), "JAVA_VERSION=\"26\"")), "a last line without a newline");
    assertEquals("23", versionOf(fakeJdk(dir.resolve("e"), "JAVA_VERSION=\"23.0.1\"\r\nOS_ARCH=\"x86_64\"\r\n")), "CRLF");
    assertEquals("22", versionOf(fakeJdk(dir.resolve("f"), "IMPLEMENTOR=\"x\"\n")), "no version in the file: the JDK's own");
    assertEquals("", versionOf(Files.createDirectories(dir.resolve("g"))), "no bin/java and bin/javac: not a JDK");
  }

  /**
   * $JAVA_HOME is taken when it is a JDK of 21 or newer, else the javac on the PATH (links followed);
   * the version is exported, and Maven is told about JDK 24+'s Unsafe warning.
   */
  @Test
  void aJdkIsChosenAndItsVersionExported(@TempDir Path dir) throws Exception {
    String print = ". bin/java-home.sh; echo \"$JAVA_HOME $FORAGER_JAVA_VERSION ${MAVEN_OPTS:-}\"";
    Path jdk25 = fakeJdk(dir.resolve("jdk 25"), "JAVA_VERSION=\"25.0.1\"\n");
    assertEquals(jdk25 + " 25 --sun-misc-unsafe-memory-access=allow",
        run(Map.of("JAVA_HOME", jdk25 + "/"), print), "a trailing slash dropped");
    Path jdk21 = fakeJdk(dir.resolve("jdk21"), "JAVA_VERSION=\"21.0.9\"\n");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("javac"), jdk21.resolve("bin/javac"));
    Path jdk17 = fakeJdk(dir.resolve("jdk17"), "JAVA_VERSION=\"17.0.2\"\n");
    assertEquals(jdk21.toRealPath() + " 21", run(Map.of("JAVA_HOME", jdk17.toString(), "PATH", bin + ":/usr/bin:/bin"), print),
        "a JDK 17 in JAVA_HOME passed over for the javac on the PATH");
  }

  /**
   * RocksJava is told the C library the JDK was built for, as its release file says, so that it runs no
   * shell to find out; a JDK that does not say leaves it to RocksJava, and a value already set stays.
   */
  @Test
  void rocksJavaIsToldTheJdksCLibrary(@TempDir Path dir) throws Exception {
    String print = ". bin/java-home.sh; echo \"${ROCKSDB_MUSL_LIBC-unset}\"";
    Path gnu = fakeJdk(dir.resolve("gnu"), "JAVA_VERSION=\"25.0.1\"\nJAVA_VERSION_DATE=\"2025-10-21\"\nLIBC=\"gnu\"\n");
    assertEquals("false", run(Map.of("JAVA_HOME", gnu.toString()), print));
    Path musl = fakeJdk(dir.resolve("musl"), "JAVA_VERSION=\"21.0.9\"\r\nLIBC=\"musl\"\r\n");
    assertEquals("true", run(Map.of("JAVA_HOME", musl.toString()), print), "CRLF");
    Path silent = fakeJdk(dir.resolve("silent"), "JAVA_VERSION=\"21.0.9\"\n");
    assertEquals("unset", run(Map.of("JAVA_HOME", silent.toString()), print));
    assertEquals("true", run(Map.of("JAVA_HOME", gnu.toString(), "ROCKSDB_MUSL_LIBC", "true"), print), "the user's own");
  }

  /**
   * A directory that looks like a JDK to the launcher: bin/java and bin/javac executable (java says it
   * is 22 when asked for its settings), a release file.
   */
  private static Path fakeJdk(Path home, String release) throws IOException {
    Files.createDirectories(home.resolve("bin"));
    Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\necho '    java.specification.version = 22' >&2\n");
    Path javac = Files.writeString(home.resolve("bin/javac"), "#!/bin/sh\nexit 1\n");
    assertTrue(java.toFile().setExecutable(true) && javac.toFile().setExecutable(true));
    Files.writeString(home.resolve("release"), release);
    return home;
  }

  /** The version the launcher reads for {@code jdk}. */
  private static String versionOf(Path jdk) throws Exception {
    return run(Map.of(), ". bin/java-home.sh; _forager_read_java_version '" + jdk + "'; echo \"$_forager_version\"");
  }

  /**
   * Runs a bash script in the checkout, $JAVA_HOME the JDK running this test unless {@code env} says
   * otherwise, and returns what it printed.
   */
  private static String run(Map<String, String> env, String script) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("MAVEN_OPTS");
    builder.environment().remove("ROCKSDB_MUSL_LIBC"); // ./test's launcher exported it
    builder.environment().putAll(env);
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, p.waitFor(), out);
    return out;
  }
}
