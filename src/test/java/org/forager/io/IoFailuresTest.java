package org.forager.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoFailuresTest {

  @TempDir Path dir;

  @Test
  void aMissingFileIsSaidInWordsNotByItsClassName() {
    Path missing = dir.resolve("nope/x.jsonl");
    IOException e = assertThrowsIo(() -> Files.newOutputStream(missing));
    assertEquals("no such file or directory", IoFailures.reason(e, missing));
  }

  @Test
  void theFileTheSystemRefusedIsNamedWhenItIsNotTheCallers() {
    assertEquals("permission denied (/data/store/LOCK)",
        IoFailures.reason(new AccessDeniedException("/data/store/LOCK"), Path.of("/data/store")));
    assertEquals("permission denied (/data/store/LOCK)", IoFailures.reason(new AccessDeniedException("/data/store/LOCK")));
  }

  @Test
  void theSystemsOwnReasonIsKept() {
    IOException e = assertThrowsIo(() -> Files.readString(dir));
    assertEquals("Is a directory", IoFailures.reason(e, dir));
    assertEquals("Read-only file system", IoFailures.reason(new FileSystemException("/mnt/ro", null, "Read-only file system"), Path.of("/mnt/ro")));
  }

  @Test
  void otherFailuresGiveTheirMessageOrTheirMeaning() {
    assertEquals("No space left on device", IoFailures.reason(new IOException("No space left on device")));
    assertEquals("unexpected end of file", IoFailures.reason(new EOFException()));
    assertEquals("no such file or directory",
        IoFailures.reason(new UncheckedIOException(new NoSuchFileException("/x")), Path.of("/x")));
  }

  private static IOException assertThrowsIo(IoAction action) {
    try {
      action.run();
    } catch (IOException e) {
      return e;
    }
    throw new AssertionError("no IOException");
  }

  private interface IoAction {
    void run() throws IOException;
  }
}
