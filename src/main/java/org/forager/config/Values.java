package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Reads one value of the YAML tree as a Java value, or throws a {@link ConfigException} naming its key
 * path and what is wrong. Every method takes the path first, for the message. Stateless.
 */
final class Values {

  private Values() {}

  /** A scalar as text. Numbers and booleans are accepted as their text ({@code allow: [1]} is "1"). */
  static String string(String path, JsonNode node) {
    if (!node.isValueNode()) throw ConfigException.at(path, "must be a string, found " + describe(node));
    return node.asText();
  }

  /** A string that is not empty or blank, stripped of surrounding spaces. */
  static String nonBlank(String path, JsonNode node) {
    String text = string(path, node).strip();
    if (text.isEmpty()) throw ConfigException.at(path, "must not be empty");
    return text;
  }

  static boolean bool(String path, JsonNode node) {
    if (!node.isBoolean()) throw ConfigException.at(path, describe(node) + " is not true or false");
    return node.booleanValue();
  }

  /** A whole number in {@code [min, max]}. */
  static long wholeNumber(String path, JsonNode node, long min, long max) {
    // 1e6 and 1000.0 are whole numbers written as decimals: YAML reads them as floats.
    if (node.isFloatingPointNumber() && Double.isFinite(node.doubleValue())
        && node.decimalValue().stripTrailingZeros().scale() <= 0) {
      node = BigIntegerNode.valueOf(node.decimalValue().toBigIntegerExact());
    }
    if (!node.isIntegralNumber()) throw ConfigException.at(path, describe(node) + " is not a whole number");
    if (!node.canConvertToLong()) {
      throw ConfigException.at(path, node.bigIntegerValue().signum() < 0 ? "must be ≥ " + min : "must be ≤ " + max);
    }
    long value = node.longValue();
    if (value < min) throw ConfigException.at(path, "must be ≥ " + min);
    if (value > max) throw ConfigException.at(path, "must be ≤ " + max);
    return value;
  }

  /** A whole number in {@code [min, Integer.MAX_VALUE]}. */
  static int intAtLeast(String path, JsonNode node, int min) {
    return (int) wholeNumber(path, node, min, Integer.MAX_VALUE);
  }

  /** A finite number, whole or decimal, at least {@code min}. */
  static double numberAtLeast(String path, JsonNode node, double min) {
    if (!node.isNumber() || !Double.isFinite(node.doubleValue())) {
      throw ConfigException.at(path, describe(node) + " is not a number");
    }
    double value = node.doubleValue();
    if (value < min) throw ConfigException.at(path, "must be ≥ " + formatNumber(min));
    return value;
  }

  /** A duration as {@link Durations} reads it. */
  static Duration duration(String path, JsonNode node) {
    if (!node.isValueNode()) throw ConfigException.at(path, "must be a duration, found " + describe(node));
    try {
      return Durations.parse(node.asText());
    } catch (IllegalArgumentException e) {
      throw ConfigException.at(path, e.getMessage());
    }
  }

  /** A duration longer than zero. */
  static Duration positiveDuration(String path, JsonNode node) {
    Duration value = duration(path, node);
    if (value.isZero()) throw ConfigException.at(path, "must be > 0");
    return value;
  }

  /** A size in bytes, as {@link Sizes} reads it, larger than zero. */
  static long positiveSize(String path, JsonNode node) {
    if (!node.isValueNode()) throw ConfigException.at(path, "must be a size, found " + describe(node));
    long bytes;
    try {
      bytes = Sizes.parse(node.asText());
    } catch (IllegalArgumentException e) {
      throw ConfigException.at(path, e.getMessage());
    }
    if (bytes == 0) throw ConfigException.at(path, "must be > 0");
    return bytes;
  }

  /** A list, each item read by {@code item} with its own path {@code path[i]}. */
  static <T> List<T> list(String path, JsonNode node, BiFunction<String, JsonNode, T> item) {
    if (!node.isArray()) throw ConfigException.at(path, "must be a list, found " + describe(node));
    List<T> items = new ArrayList<>(node.size());
    for (int i = 0; i < node.size(); i++) {
      JsonNode element = node.get(i);
      String itemPath = path + "[" + i + "]";
      if (element.isNull()) throw ConfigException.at(itemPath, "has no value");
      items.add(item.apply(itemPath, element));
    }
    return List.copyOf(items);
  }

  /** A value as a message shows it: strings quoted, numbers and booleans as they are, a list, a map. */
  static String describe(JsonNode node) {
    if (node.isTextual()) return ConfigException.quote(node.textValue());
    if (node.isArray()) return "a list";
    if (node.isObject()) return "a map";
    if (node.isNull()) return "nothing";
    return node.asText();
  }

  private static String formatNumber(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
