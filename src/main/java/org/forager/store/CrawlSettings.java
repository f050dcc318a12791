package org.forager.store;

import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a crawl setting ({@link CrawlStore#setting}) may be, checked the same way by every store:
 * a name of 1 to {@value #MAX_NAME_LENGTH} characters from {@code [a-z0-9_.-]}, a value of at most
 * {@value #MAX_VALUE_BYTES} bytes of UTF-8 without NUL (PostgreSQL's text cannot hold it) or an
 * unpaired surrogate (it has no UTF-8 form). Stateless.
 */
public final class CrawlSettings {

  public static final int MAX_NAME_LENGTH = 64;
  /** 64 KiB: room for a long allow/deny list, small enough to read on every resume. */
  public static final int MAX_VALUE_BYTES = 64 * 1024;

  private static final Pattern NAME = Pattern.compile("[a-z0-9_.-]{1," + MAX_NAME_LENGTH + "}");

  private CrawlSettings() {}

  /**
   * Returns {@code name} when it is a valid setting name.
   *
   * @throws IllegalArgumentException naming the rule it breaks
   */
  public static String checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a crawl setting name is 1 to " + MAX_NAME_LENGTH
          + " characters of [a-z0-9_.-], not \"" + abbreviate(name) + "\"");
    }
    return name;
  }

  /**
   * The UTF-8 bytes of {@code value} when it is a valid value of setting {@code name}.
   *
   * @throws IllegalArgumentException when it is too long, contains NUL or an unpaired surrogate
   */
  public static byte[] checkValue(String name, String value) {
    Objects.requireNonNull(value, "value");
    // UTF-8 takes at least one byte per char: a longer string is too long without encoding it.
    if (value.length() > MAX_VALUE_BYTES) throw tooLong(name);
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("the value of crawl setting " + name + " contains NUL");
    }
    byte[] bytes;
    try {
      var encoded = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(value));
      bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "the value of crawl setting " + name + " is not valid Unicode (an unpaired surrogate)");
    }
    if (bytes.length > MAX_VALUE_BYTES) throw tooLong(name);
    return bytes;
  }

  private static IllegalArgumentException tooLong(String name) {
    return new IllegalArgumentException("the value of crawl setting " + name + " is longer than "
        + MAX_VALUE_BYTES + " bytes of UTF-8");
  }

  /** The name as one printable line of at most 80 characters, for the message. */
  private static String abbreviate(String name) {
    String shown = name.length() <= 80 ? name : name.substring(0, 80) + "...";
    return shown.replaceAll("[^\\x20-\\x7e]", "?");
  }
}
