package org.forager.warc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CaptureRecordsTest {

  @Test
  void ipLiteralsAreKeptAndAnythingElseIsDropped() {
    assertEquals(Optional.of("93.184.216.34"), CaptureRecords.ipLiteral("93.184.216.34"));
    assertEquals(Optional.of("2001:db8::1"), CaptureRecords.ipLiteral("2001:db8::1"));
    assertEquals(Optional.of("::1"), CaptureRecords.ipLiteral("[::1]"));
    assertEquals(Optional.of("127.0.0.1"), CaptureRecords.ipLiteral("localhost/127.0.0.1"));
    assertEquals(Optional.of("127.0.0.1"), CaptureRecords.ipLiteral("/127.0.0.1"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral("example.org"));
    assertEquals(Optional.empty(), CaptureRecords.ipLiteral(""));
  }
}
