package org.forager.config;

/**
 * A configuration mistake: a bad key, value, file or flag. Its message is one line that names where the
 * problem is and what it is, ready to be shown to the user as it is, e.g. {@code config: limits.max_depth:
 * must be ≥ 0}. Messages about the configuration file start with {@code config: } and a key path
 * ({@code politeness.min_delay}, {@code do_not_crawl[1]}); messages about flags start with the flag.
 */
public final class ConfigException extends RuntimeException {

  ConfigException(String message) {
    // One line whatever went into the message: it is printed as the single line of an exit-2 error.
    super(message.replaceAll("[\\r\\n]+", " "));
  }

  /** A problem at a key path of the configuration file; an empty path means the file as a whole. */
  static ConfigException at(String path, String problem) {
    return new ConfigException(path.isEmpty() ? "config: " + problem : "config: " + path + ": " + problem);
  }

  /** A problem with a command-line flag, e.g. {@code --seed}. */
  static ConfigException flag(String flag, String problem) {
    return new ConfigException(flag + ": " + problem);
  }

  /** {@code text} in double quotes, with quotes, backslashes and control characters escaped. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (Character.isISOControl(c)) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    return out.append('"').toString();
  }
}
