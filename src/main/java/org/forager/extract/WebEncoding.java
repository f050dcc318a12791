package org.forager.extract;

import java.nio.charset.Charset;

/**
 * An encoding of the WHATWG Encoding Standard as Java implements it.
 *
 * @param name the standard's name ({@code windows-1252}, {@code Shift_JIS}, {@code GBK})
 * @param charset the Java charset that decodes it ({@code windows-1252}, {@code windows-31j}, {@code GB18030})
 * @param queryCharset the Java charset that encodes the query of a link on a page in this encoding (URL
 *     Standard): UTF-8 for UTF-16 pages (HTML "get an output encoding"), Java's {@code x-mswin-936} for
 *     GBK (the standard's GBK encoder writes the euro sign as 0x80 and has no four-byte codes), else
 *     {@code charset}
 * @param asciiCompatible whether each byte below 0x80 is that ASCII character wherever it is, and no other
 *     byte is part of one (UTF-8 and the single-byte encodings): the reader then reads the page's bytes
 *     ({@link ByteMarkup#canRead})
 */
record WebEncoding(String name, Charset charset, Charset queryCharset, boolean asciiCompatible) {}
