package org.forager.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads YAML text into a Jackson tree, refusing what a plain tree reader would silently get wrong: a
 * key given twice (the first value would be lost), an alias {@code *name} (Jackson reads it as the
 * string "name") and a second document. Syntax errors become one line with the line and column.
 * Stateless and thread-safe.
 */
final class YamlTree {

  private static final YAMLFactory FACTORY = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern DECIMAL_INTEGER = Pattern.compile("[-+]?(0|[1-9](_*[0-9])*)");
  private static final Pattern DECIMAL_NUMBER = Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");

  private YamlTree() {}

  /** The tree of the one document in {@code yaml}; empty when there is none (an empty file, comments). */
  static Optional<JsonNode> parse(String yaml) {
    try (YAMLParser parser = FACTORY.createParser(yaml)) {
      JsonToken first = parser.nextToken();
      if (first == null) return Optional.empty();
      JsonNode root = value(parser, first);
      if (parser.nextToken() != null) {
        throw invalid(parser.currentTokenLocation(), "more than one document; put everything in one");
      }
      return root.isNull() ? Optional.empty() : Optional.of(root);
    } catch (StreamReadException e) {
      throw invalid(e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading YAML from a string", e);
    }
  }

  private static JsonNode value(YAMLParser parser, JsonToken token) throws IOException {
    if (parser.isCurrentAlias()) {
      throw invalid(parser.currentTokenLocation(),
          "aliases (*" + parser.getText() + ") are not supported; write the value out");
    }
    return switch (token) {
      case START_OBJECT -> map(parser);
      case START_ARRAY -> list(parser);
      case VALUE_STRING -> NODES.textNode(parser.getText());
      // YAML 1.1 (SnakeYAML's) also reads 0x10, 010 (octal: 8), 1:30, yes, no, on and off as numbers
      // and booleans; the configuration takes decimal numbers (digits grouped by _) and true or false
      // only (docs/configuration.md): the others stay the text they are, and a number or boolean key
      // names them as wrong.
      case VALUE_NUMBER_INT -> !DECIMAL_INTEGER.matcher(parser.getText()).matches() ? NODES.textNode(parser.getText())
          : switch (parser.getNumberType()) {
            case INT -> NODES.numberNode(parser.getIntValue());
            case LONG -> NODES.numberNode(parser.getLongValue());
            default -> NODES.numberNode(parser.getBigIntegerValue());
          };
      case VALUE_NUMBER_FLOAT -> DECIMAL_NUMBER.matcher(parser.getText()).matches()
          ? NODES.numberNode(parser.getDoubleValue()) : NODES.textNode(parser.getText());
      case VALUE_TRUE -> parser.getText().equalsIgnoreCase("true") ? NODES.booleanNode(true) : NODES.textNode(parser.getText());
      case VALUE_FALSE -> parser.getText().equalsIgnoreCase("false") ? NODES.booleanNode(false) : NODES.textNode(parser.getText());
      case VALUE_NULL -> NODES.nullNode();
      default -> throw invalid(parser.currentTokenLocation(), "unsupported value " + parser.getText());
    };
  }

  private static ObjectNode map(YAMLParser parser) throws IOException {
    ObjectNode map = NODES.objectNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      JsonLocation keyLocation = parser.currentTokenLocation();
      JsonNode value = value(parser, parser.nextToken());
      if (map.has(key)) throw invalid(keyLocation, "duplicate key '" + key + "'");
      map.set(key, value);
    }
    return map;
  }

  private static ArrayNode list(YAMLParser parser) throws IOException {
    ArrayNode list = NODES.arrayNode();
    JsonToken token;
    while ((token = parser.nextToken()) != JsonToken.END_ARRAY) list.add(value(parser, token));
    return list;
  }

  private static ConfigException invalid(StreamReadException e) {
    // SnakeYAML's own message spans several lines (context, snippet, caret); its "problem" is the point,
    // and its problem mark is where the problem is, while Jackson's location is where the parser got to.
    if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked
        && marked.getProblem() != null && marked.getProblemMark() != null) {
      return invalid(marked.getProblemMark().getLine() + 1, marked.getProblemMark().getColumn() + 1,
          firstLine(marked.getProblem()));
    }
    JsonLocation location = e.getLocation();
    return location == null
        ? invalid(0, 0, firstLine(e.getOriginalMessage()))
        : invalid(location.getLineNr(), location.getColumnNr(), firstLine(e.getOriginalMessage()));
  }

  private static String firstLine(String message) {
    return message.strip().lines().findFirst().orElse("unreadable");
  }

  private static ConfigException invalid(JsonLocation location, String problem) {
    return invalid(location.getLineNr(), location.getColumnNr(), problem);
  }

  private static ConfigException invalid(int line, int column, String problem) {
    if (line < 1) return ConfigException.at("", "invalid YAML: " + problem);
    return ConfigException.at("", "invalid YAML at line " + line + ", column " + column + ": " + problem);
  }
}
