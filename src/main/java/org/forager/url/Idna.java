package org.forager.url;

import com.ibm.icu.text.IDNA;
import com.ibm.icu.util.ICUInputTooLongException;
import java.util.EnumSet;
import java.util.Set;

/**
 * UTS #46 ToASCII with the URL Standard's options ("domain parser ToASCII" with beStrict false):
 * non-transitional ({@code faß.example} is {@code xn--fa-hia.example}, not {@code fass.example}),
 * CheckBidi and CheckJoiners on, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off. Backed by
 * ICU4J, whose Unicode version is ICU's (Unicode 17 for ICU 78). Stateless and thread-safe: ICU's
 * {@code IDNA} instances are immutable.
 */
public final class Idna {

  private static final IDNA UTS46 = IDNA.getUTS46Instance(
      IDNA.NONTRANSITIONAL_TO_ASCII | IDNA.CHECK_BIDI | IDNA.CHECK_CONTEXTJ);

  // ICU always checks hyphens and DNS lengths; the URL Standard turns both checks off, so these
  // errors do not fail a host.
  private static final Set<IDNA.Error> IGNORED = EnumSet.of(
      IDNA.Error.LEADING_HYPHEN, IDNA.Error.TRAILING_HYPHEN, IDNA.Error.HYPHEN_3_4,
      IDNA.Error.EMPTY_LABEL, IDNA.Error.LABEL_TOO_LONG, IDNA.Error.DOMAIN_NAME_TOO_LONG);

  private Idna() {}

  /**
   * The ASCII form of a host name as the URL Standard has it (UTS #46, non-transitional): {@code
   * faß.example} is {@code xn--fa-hia.example}; empty when UTS #46 refuses the name.
   */
  public static java.util.Optional<String> toAscii(String domain) {
    StringBuilder out = new StringBuilder(domain.length() + 16);
    return toAscii(domain, out) ? java.util.Optional.of(out.toString()) : java.util.Optional.empty();
  }

  /** Appends the ASCII form of {@code domain} (lower case, as ICU maps it); false on a UTS #46 error. */
  static boolean toAscii(String domain, StringBuilder out) {
    IDNA.Info info = new IDNA.Info();
    StringBuilder ascii;
    try {
      ascii = UTS46.nameToASCII(domain, new StringBuilder(domain.length() + 16), info);
    } catch (ICUInputTooLongException e) {
      // ICU's Punycode encoder refuses a label over 1000 UTF-16 units; no browser resolves such a host.
      return false;
    }
    for (IDNA.Error error : info.getErrors()) {
      if (!IGNORED.contains(error)) return false;
    }
    out.append(ascii);
    return true;
  }
}
