package org.forager.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * One map of the configuration at a key path (the file itself, {@code politeness}, {@code
 * do_not_crawl[0]}) with the keys it may hold. Creating it refuses unknown keys, suggesting the closest
 * known one; reading a key gives empty when it is absent, so that the caller applies the default.
 */
final class Section {

  private final String path;
  private final JsonNode map;

  private Section(String path, JsonNode map, List<String> knownKeys) {
    this.path = path;
    this.map = map;
    for (Iterator<String> keys = map.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!knownKeys.contains(key)) throw unknownKey(key, knownKeys);
    }
  }

  /** The map at {@code path}; {@code node} must be a map. */
  static Section of(String path, JsonNode node, List<String> knownKeys) {
    if (!node.isObject()) {
      String problem = "must be a map (key: value), found " + Values.describe(node);
      throw ConfigException.at(path, path.isEmpty() ? "the file " + problem : problem);
    }
    return new Section(path, node, knownKeys);
  }

  String path() {
    return path;
  }

  /** The path of one of this section's keys, e.g. {@code politeness.min_delay}. */
  String pathOf(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  boolean has(String key) {
    return map.has(key);
  }

  /** The value of {@code key} read by {@code reader} (given the key's path); empty when the key is absent. */
  <T> Optional<T> get(String key, BiFunction<String, JsonNode, T> reader) {
    JsonNode value = map.get(key);
    if (value == null) return Optional.empty();
    if (value.isNull()) {
      throw ConfigException.at(pathOf(key), "has no value (give one, or remove the key to use the default)");
    }
    return Optional.of(reader.apply(pathOf(key), value));
  }

  /** The map under {@code key}, empty of keys when the key is absent. */
  Section section(String key, List<String> knownKeys) {
    return get(key, (keyPath, node) -> of(keyPath, node, knownKeys))
        .orElseGet(() -> new Section(pathOf(key), JsonNodeFactory.instance.objectNode(), knownKeys));
  }

  private ConfigException unknownKey(String key, List<String> knownKeys) {
    String hint = Spelling.closest(key, knownKeys)
        .map(known -> "did you mean '" + known + "'?")
        .orElseGet(() -> "known keys: " + String.join(", ", knownKeys));
    return ConfigException.at(path, "unknown key '" + key + "' (" + hint + ")");
  }
}
