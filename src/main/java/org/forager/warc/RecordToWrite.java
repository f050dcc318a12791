package org.forager.warc;

import java.util.List;
import org.netpreserve.jwarc.WarcRecord;

/**
 * A record to write, with its block's bytes in pieces (e.g. the HTTP head, then the payload): the
 * bytes its {@code Content-Length} counts, which {@link RecordBytes} writes without reading the
 * record's body channel.
 */
record RecordToWrite(WarcRecord record, List<byte[]> block) {}
