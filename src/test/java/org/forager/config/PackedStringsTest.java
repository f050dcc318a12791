package org.forager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackedStringsTest {

  @Test
  void aPackedListIsTheListOfItsStringsInOrder() {
    List<String> strings = new ArrayList<>();
    PackedStrings.Builder builder = new PackedStrings.Builder();
    for (int i = 0; i < 3_000; i++) {
      String s = i % 7 == 0 ? "" : "https://bücher.example/" + i + "/ü€😀";
      strings.add(s);
      builder.add(s);
    }
    PackedStrings packed = builder.build();
    assertEquals(strings, packed);
    assertEquals(packed, strings);
    assertEquals(strings.hashCode(), packed.hashCode());
    assertThrows(IndexOutOfBoundsException.class, () -> packed.get(3_000));
    assertThrows(UnsupportedOperationException.class, () -> packed.add("x"));
    assertEquals(List.of(), new PackedStrings.Builder().build());
  }
}
