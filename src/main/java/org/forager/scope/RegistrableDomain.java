package org.forager.scope;

import crawlercommons.domains.EffectiveTldFinder;
import java.util.Locale;

/**
 * The registrable domain ("eTLD+1") of a host: the public suffix it ends with plus one label, by the
 * public suffix list that crawler-commons embeds (its version is in docs/scope.md). {@code
 * a.b.example.co.uk} → {@code example.co.uk}. Stateless and thread-safe.
 *
 * <p>Rules on top of the list's algorithm (https://publicsuffix.org/list/):
 * <ul>
 *   <li>the private section counts like the ICANN one: {@code foo.blogspot.com} and {@code
 *       bar.github.io} are registrable domains of their own, as their owners are distinct;
 *   <li>a host the list does not know the suffix of takes the list's default rule {@code *}: its last
 *       label is the suffix ({@code www.site.test} → {@code site.test}; {@code .test} is not listed);
 *   <li>an IP address (IPv4, bracketed IPv6), a name of one label ({@code localhost}) and a name that
 *       is itself a public suffix ({@code blogspot.com}, {@code co.uk}) are their own domain;
 *   <li>one trailing dot is dropped: {@code www.example.org.} → {@code example.org}.
 * </ul>
 * Hosts are expected as normalized URLs carry them: IDNs in ASCII ({@code xn--}) form, lower case
 * (upper case is lowered). The answer is then in the same form.
 */
public final class RegistrableDomain {

  static {
    // EffectiveTldFinder's lazy singleton is not safely published; loading it while this class is
    // initialized makes every later lookup (which goes through this class) see it whole.
    EffectiveTldFinder.getInstance();
  }

  private RegistrableDomain() {}

  /** The registrable domain of a normalized host; never null, at worst the host itself. */
  public static String of(String host) {
    String name = Hosts.withoutTrailingDot(host.toLowerCase(Locale.ROOT));
    if (Hosts.isIp(name) || name.indexOf('.') < 0) return name;
    // strict: null when no listed suffix matches, or when the host is itself a suffix.
    String domain = EffectiveTldFinder.getAssignedDomain(name, true, false);
    if (domain != null) return domain;
    if (EffectiveTldFinder.getEffectiveTLD(name, false) != null) return name;
    return lastTwoLabels(name);
  }

  /**
   * Whether a host is itself a public suffix of the list's ICANN section ({@code co.uk}, {@code com},
   * {@code c.kawasaki.jp} under {@code *.kawasaki.jp}): one that registries hand out names under and no
   * single registrant holds. The private section ({@code github.io}) is left out: its owners do hold it.
   */
  public static boolean isRegistrySuffix(String host) {
    String name = Hosts.withoutTrailingDot(host.toLowerCase(Locale.ROOT));
    if (name.isEmpty() || Hosts.isIp(name)) return false;
    EffectiveTldFinder.EffectiveTLD suffix = EffectiveTldFinder.getEffectiveTLD(name, true);
    return suffix != null && !suffix.isException() && suffix.getDomain().equals(name);
  }

  /** The default rule {@code *}: the last label is the public suffix. */
  private static String lastTwoLabels(String name) {
    int last = name.lastIndexOf('.');
    int before = name.lastIndexOf('.', last - 1);
    return before < 0 ? name : name.substring(before + 1);
  }
}
