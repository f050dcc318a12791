package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.forager.store.Concurrently;
import org.junit.jupiter.api.Test;

class RecordIdsTest {

  @Test
  void everyIdIsAVersion4UuidOfTheIetfVariant() {
    RecordIds ids = new RecordIds();
    for (int i = 0; i < 3 * RecordIds.BATCH + 5; i++) { // across refills
      UUID id = ids.next();
      assertEquals(4, id.version(), id.toString());
      assertEquals(2, id.variant(), id.toString());
    }
  }

  @Test
  void theIdsAreTheGeneratorsBytesInOrderWithOnlyTheVersionAndVariantBitsSet() throws Exception {
    byte[] seed = {1, 2, 3, 4, 5, 6, 7, 8};
    RecordIds ids = new RecordIds(seeded(seed));
    SecureRandom same = seeded(seed);
    byte[] expected = new byte[RecordIds.BATCH * 16];
    for (int batch = 0; batch < 2; batch++) {
      same.nextBytes(expected);
      ByteBuffer bytes = ByteBuffer.wrap(expected);
      for (int i = 0; i < RecordIds.BATCH; i++) {
        long msb = bytes.getLong();
        long lsb = bytes.getLong();
        UUID id = ids.next();
        assertEquals(msb & ~0xF000L, id.getMostSignificantBits() & ~0xF000L, "batch " + batch + ", id " + i);
        assertEquals(lsb & ~(0xC0L << 56), id.getLeastSignificantBits() & ~(0xC0L << 56), "batch " + batch + ", id " + i);
      }
    }
  }

  @Test
  void idsMadeOnManyThreadsAtOnceAreAllDistinct() throws Exception {
    RecordIds ids = new RecordIds();
    int threads = 8;
    int each = 20_000;
    List<List<UUID>> made = Concurrently.call(threads, thread -> {
      List<UUID> mine = new java.util.ArrayList<>(each);
      for (int i = 0; i < each; i++) mine.add(ids.next());
      return mine;
    });
    Set<UUID> all = new HashSet<>();
    made.forEach(all::addAll);
    assertEquals(threads * each, all.size());
  }

  private static SecureRandom seeded(byte[] seed) throws Exception {
    SecureRandom random = SecureRandom.getInstance("SHA1PRNG"); // seeded before first use: deterministic
    random.setSeed(seed);
    return random;
  }
}
