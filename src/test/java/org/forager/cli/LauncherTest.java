package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
   * each form JDKs write it, and takes $JAVA_HOME when it is a JDK of 21 or newer.
   */
  @Test
  void theJdksVersionIsReadFromItsReleaseFile(@TempDir Path dir) throws Exception {
    assertEquals("21", versionOf(fakeJdk(dir.resolve("a"), "JAVA_VERSION=\"21.0.2\"")));
    assertEquals("8", versionOf(fakeJdk(dir.resolve("b"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"1.8.0_402\"")));
    assertEquals("25", versionOf(fakeJdk(dir.resolve("c"), "JAVA_VERSION=\"25-ea\"\nOS_NAME=\"Linux\"")));
    assertEquals("26", versionOf(fakeJdk(dir.resolve("d"), "JAVA_VERSION=\"26\"")), "a last line without a newline");
    Path notAJdk = Files.createDirectories(dir.resolve("e"));
    assertEquals("", versionOf(notAJdk), "no bin/java and bin/javac: not a JDK");
    Path jdk = fakeJdk(dir.resolve("f"), "JAVA_VERSION=\"21.0.9\"\n");
    assertEquals(jdk + " 21", run("unset JAVA_HOME; JAVA_HOME=" + jdk + "/ ; . bin/java-home.sh; echo \"$JAVA_HOME $FORAGER_JAVA_VERSION\""));
  }

  /** A directory that looks like a JDK to the launcher: bin/java and bin/javac executable, a release file. */
  private static Path fakeJdk(Path home, String release) throws IOException {
    Files.createDirectories(home.resolve("bin"));
    for (String tool : List.of("java", "javac")) {
      Path file = Files.writeString(home.resolve("bin").resolve(tool), "#!/bin/sh\nexit 1\n");
      assertTrue(file.toFile().setExecutable(true));
    }
    Files.writeString(home.resolve("release"), release);
    return home;
  }

  /** The version the launcher reads for {@code jdk} (bin/java-home.sh finds this machine's JDK first). */
  private static String versionOf(Path jdk) throws Exception {
    return run(". bin/java-home.sh; _forager_read_java_version '" + jdk + "'; echo \"$_forager_version\"");
  }

  private static String run(String script) throws Exception {
    Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(0, p.waitFor(), out);
    return out;
  }
}
