package org.forager.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.forager.audit.PolitenessAudit;
import org.forager.config.CrawlConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * log.keep deletes old parts of the crawl log; what is left must still be audited right. The audit
 * found every page of an origin whose robots.txt fetch was in a deleted part impolite (review of
 * session 61): the deletion is now noted beside the parts, and the audit reads it.
 */
class LogRetentionTest {

  @TempDir Path tmp;

  private static String line(String ts, String kind, String url, String outcome, int status) {
    return "{\"ts\":\"" + ts + "\",\"kind\":\"" + kind + "\",\"url\":\"" + url + "\",\"outcome\":\"" + outcome
        + "\",\"http_status\":" + status + ",\"duration_ms\":10,\"delay_ms\":100}";
  }

  /** Writes {@code lines} to the live file, last written at {@code at}, and finishes it into a part. */
  private static void finishPart(LogRotation rotation, Path live, Instant at, String... lines) throws Exception {
    Files.write(live, List.of(lines));
    Files.setLastModifiedTime(live, FileTime.from(at));
    rotation.finish();
  }

  @Test
  void partsLogKeepDeletedAreNotedTheirNumbersGoOnAndTheAuditReadsWhatIsLeftKnowingIt() throws Exception {
    Path live = tmp.resolve("crawl.jsonl");
    Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
    CrawlConfig.Log policy = new CrawlConfig.Log(1 << 20, false, Optional.of(Duration.ofHours(1)));
    // Two parts two hours old, then the retention at a clock two hours on: both go.
    try (LogRotation old = LogRotation.start(live, policy, Clock.fixed(t0, ZoneOffset.UTC))) {
      finishPart(old, live, t0, line("2026-12-01T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200));
      finishPart(old, live, t0.plusSeconds(1),
          line("2026-12-01T00:00:01.000Z", "page", "http://a.example/", "FETCHED", 200));
    }
    Instant later = t0.plus(Duration.ofHours(2));
    try (LogRotation now = LogRotation.start(live, policy, Clock.fixed(later, ZoneOffset.UTC))) {
      finishPart(now, live, later,
          line("2026-12-01T02:00:00.000Z", "page", "http://a.example/x", "FETCHED", 200),
          line("2026-12-01T02:00:00.200Z", "robots", "http://b.example/robots.txt", "TIMEOUT", 0),
          line("2026-12-01T02:00:01.000Z", "page", "http://b.example/", "FETCHED", 200));
    }
    assertEquals(Optional.of(new CrawlLogFiles.Expired(2, 2, t0.plusSeconds(1))), CrawlLogFiles.expired(live));
    List<Path> parts = CrawlLogFiles.parts(live);
    assertEquals(1, parts.size(), parts.toString());
    assertTrue(parts.get(0).getFileName().toString().endsWith("-3.jsonl.gz"), "numbered on from the deleted: " + parts);
    assertEquals(4, CrawlLogFiles.nextSequence(tmp));

    // a.example's robots.txt is in a deleted part: its page is not judged. b.example's failed in what is
    // left: its page after it is impolite all the same.
    PolitenessAudit.Report report = PolitenessAudit.audit(live);
    assertEquals(1, report.unjudged());
    assertEquals(List.of("http://b.example"), report.violations().stream().map(PolitenessAudit.Violation::origin).toList());
    assertEquals(Optional.of(new CrawlLogFiles.Expired(2, 2, t0.plusSeconds(1))), report.expired());
  }

  /**
   * A page more than a robots.txt's longest life (24 hours) after the deleted parts cannot lean on a
   * robots.txt fetched in them: an origin first seen then that skipped robots.txt is a violation, as
   * without the deletion (review of session 61).
   */
  @Test
  void aPageLongAfterTheDeletedPartsIsJudgedAsAnyOther() throws Exception {
    Path live = tmp.resolve("crawl.jsonl");
    CrawlLogFiles.recordExpired(tmp, new CrawlLogFiles.Expired(1, 1, Instant.parse("2026-12-01T00:00:00Z")));
    Files.write(live, List.of(
        line("2026-12-01T23:00:00.000Z", "page", "http://a.example/", "FETCHED", 200),
        line("2026-12-02T01:00:00.000Z", "page", "http://b.example/", "FETCHED", 200)));
    PolitenessAudit.Report report = PolitenessAudit.audit(live);
    assertEquals(1, report.unjudged());
    assertEquals(List.of("http://b.example"), report.violations().stream().map(PolitenessAudit.Violation::origin).toList());
  }

  /** The note is bookkeeping: a damaged one must not stop the crawl's log from rotating (review of session 61). */
  @Test
  void aDamagedNoteStopsNoRotationAndIsWrittenAfreshAtTheNextDeletion() throws Exception {
    Files.writeString(tmp.resolve(CrawlLogFiles.EXPIRED), "parts=x\n");
    assertEquals(1, CrawlLogFiles.nextSequence(tmp));
    Path live = tmp.resolve("crawl.jsonl");
    Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
    CrawlConfig.Log policy = new CrawlConfig.Log(1 << 20, false, Optional.of(Duration.ofHours(1)));
    try (LogRotation rotation = LogRotation.start(live, policy, Clock.fixed(t0.plus(Duration.ofHours(2)), ZoneOffset.UTC))) {
      finishPart(rotation, live, t0, line("2026-12-01T00:00:00.000Z", "robots", "http://a.example/robots.txt", "FETCHED", 200));
    }
    assertEquals(Optional.of(new CrawlLogFiles.Expired(1, 1, t0)), CrawlLogFiles.expired(live));
  }

  @Test
  void withNothingDeletedAPageBeforeAnyRobotsTxtIsAViolation() throws Exception {
    Path live = tmp.resolve("crawl.jsonl");
    Files.write(live, List.of(line("2026-12-08T00:00:00.000Z", "page", "http://a.example/x", "FETCHED", 200)));
    PolitenessAudit.Report report = PolitenessAudit.audit(live);
    assertEquals(0, report.unjudged());
    assertEquals(List.of("robots.txt first"), report.violations().stream().map(PolitenessAudit.Violation::rule).toList());
    assertEquals(Optional.empty(), report.expired());
  }
}
