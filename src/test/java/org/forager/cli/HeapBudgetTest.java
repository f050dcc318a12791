package org.forager.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class HeapBudgetTest {

  @Test
  void aMillionSeedsFitTheDefaultHeapTenMillionDoNot() {
    assertEquals(Optional.empty(), HeapBudget.problem(1_000_000, 240L << 20));
    assertEquals(Optional.of("10,000,000 seeds need about 969 MiB of heap and the JVM has 240 MiB: raise"
        + " FORAGER_HEAP (the JVM's -Xmx), or crawl the seeds in parts (each part's --seeds-file with the same"
        + " --data-dir)"), HeapBudget.problem(10_000_000, 240L << 20));
    assertEquals(Optional.empty(), HeapBudget.problem(10_000_000, 2L << 30));
  }
}
