package org.forager.recrawl;

/**
 * The change-rate estimate behind the adaptive interval. Stateless.
 *
 * <p>A page is modelled as changing by a Poisson process of rate λ (Cho and Garcia-Molina,
 * "Estimating frequency of change", ACM TOIT 3(3), 2003; Brewington and Cybenko found the same
 * model fits web pages). A fetch only tells whether the page changed at least once since the
 * previous fetch, so the naive estimate X/T (changes seen over time watched) is biased low: several
 * changes between two fetches count as one, and a page fetched too rarely looks no faster than the
 * fetch rate. Cho and Garcia-Molina's bias-reduced estimator (their section 4.1) corrects it:
 *
 * <pre>  r̂ = −ln((n − X + 0.5) / (n + 0.5)),   λ̂ = r̂ / Ī</pre>
 *
 * <p>where n fetches at interval Ī saw X changes. Unlike X/T it stays finite when every fetch saw a
 * change (X = n) and is nearly unbiased for λĪ up to about 2. The paper derives it for a fixed
 * interval; here Ī is the mean of the actual, adapting intervals, an approximation that is exact
 * once the interval settles.
 */
final class ChangeRate {

  private ChangeRate() {}

  /**
   * The estimated mean time between changes 1/λ̂, in seconds; infinite when no change was seen.
   *
   * @param comparisons n, the (weighted) fetches compared with their predecessor, &gt; 0
   * @param changes X, the (weighted) comparisons that found a change, ≤ n
   * @param observedSeconds the (weighted) total time between the compared fetches
   */
  static double meanTimeBetweenChanges(double comparisons, double changes, double observedSeconds) {
    double ratio = -Math.log((comparisons - changes + 0.5) / (comparisons + 0.5));
    if (ratio <= 0) return Double.POSITIVE_INFINITY;
    return observedSeconds / comparisons / ratio;
  }
}
