package org.forager.cli;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.forager.store.Stores;

/**
 * Ends the {@code forager} process once its command has returned. {@code System.exit} costs a crawl
 * about 0.3 s: HotSpot's exit waits up to 300 ms for any Java thread in a native call, and a crawl
 * always has one, the JDK's poller for virtual threads' sockets, in {@code epoll_wait}
 * (docs/benchmarks.md, issue 15, session 27). libc's {@code _exit} ends it at once.
 *
 * <p>{@code _exit} skips everything the JVM does at its exit, so it is used only when none of it
 * matters: the launcher asked for it ({@value #PROPERTY}{@code =native}, set only when the JVM runs
 * with the launcher's options alone, so no flight recording, agent, class-archive dump or log file of
 * the JVM's own is waiting for the exit); the command was a crawl, whose outputs are closed and
 * flushed when it returns (and which has JNA loaded already, for the WARC's compressor); Linux; and no
 * library unpacked a native library to a temporary file it deletes at exit (RocksJava's own way,
 * taken only when the user's cache cannot hold the copy, and zstd-jni, loaded for zstd WARC files).
 * The JVM's {@code hsperfdata} file is removed here, as the JVM would. Anything else: {@code System.exit}.
 */
final class ProcessExit {

  /** The system property the launcher sets to {@code native} when the JVM has its options alone. */
  static final String PROPERTY = "forager.exit";

  private ProcessExit() {}

  /** Ends the process with {@code code}, standard output and error flushed; never returns. */
  static void exit(int code, boolean crawl) {
    // A graceful stop that finished as a second signal came would otherwise exit 0 after "stopping at once".
    if (StopOnSignals.stoppedAtOnce()) code = 130;
    System.out.flush();
    System.err.flush();
    if (crawl && nativeExitSafe()) {
      try {
        removePerfData();
        LibC._exit(code);
      } catch (RuntimeException | LinkageError e) {
        // JNA or libc not usable here: the JVM's own exit below.
      }
    }
    System.exit(code);
  }

  /** Whether nothing the JVM would do at its exit is needed (see the class comment). */
  static boolean nativeExitSafe() {
    return "native".equals(System.getProperty(PROPERTY))
        && Platform.isLinux()
        && !Stores.nativeLibraryInTemporaryFile()
        && !zstdLoaded();
  }

  private static boolean zstdLoaded() {
    try {
      return com.github.luben.zstd.util.Native.isLoaded();
    } catch (LinkageError e) {
      return true; // cannot tell: assume it left a file to delete
    }
  }

  /** The JVM's performance-data file, which its exit removes (the next JVM would remove it too). */
  private static void removePerfData() {
    String user = System.getProperty("user.name");
    if (user == null || user.isEmpty()) return;
    try {
      Files.deleteIfExists(Path.of("/tmp", "hsperfdata_" + user, Long.toString(ProcessHandle.current().pid())));
    } catch (IOException | RuntimeException e) {
      // Left for the next JVM of this user, which removes the files of processes that have ended.
    }
  }

  /** libc, through JNA's direct mapping. */
  private static final class LibC {
    static {
      Native.register(LibC.class, Platform.C_LIBRARY_NAME);
    }

    static native void _exit(int status);
  }
}
