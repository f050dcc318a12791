package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

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
}
