package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The launcher stops JNA's listing of the system's library directories ({@code
 * jna.platform.library.path}, which ran {@code /sbin/ldconfig -p} at every start): a JVM started with
 * the launcher's option still loads every compression library this machine has (a review found
 * libdeflate lost that way: the runtime package installs {@code libdeflate.so.0} alone, which JNA's
 * search by "deflate" found only through that list).
 */
class LauncherNativeLibrariesTest {

  @Test
  void theLaunchersJnaOptionLosesNoLibrary() throws Exception {
    String launcher = Files.readString(Path.of("forager"), StandardCharsets.UTF_8);
    Matcher option = Pattern.compile("(-Djna\\.platform\\.library\\.path=[^)\\s]*)").matcher(launcher);
    assertTrue(option.find(), "the launcher sets jna.platform.library.path");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, option.group(1), "-cp", System.getProperty("java.class.path"),
        "--enable-native-access=ALL-UNNAMED", Probe.class.getName()).redirectErrorStream(true).start();
    boolean ended = child.waitFor(60, TimeUnit.SECONDS); // one line of output: no pipe fills meanwhile
    if (!ended) child.destroyForcibly();
    assertTrue(ended, "the child ended");
    String printed = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    // This JVM has JNA's own list: what it can load, the launcher's JVM must load too.
    assertEquals(Probe.line(), printed);
  }

  /** Prints which of the compressors' native libraries load, and why not. */
  static final class Probe {

    public static void main(String[] args) {
      System.out.println(line());
    }

    static String line() {
      return "isal " + Isal.unavailable().orElse("loads") + "; libdeflate " + LibDeflate.unavailable().orElse("loads");
    }
  }
}
