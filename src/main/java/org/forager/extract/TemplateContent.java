package org.forager.extract;

import java.util.Arrays;

/**
 * The {@code <template>} elements open (outside foreign content) and the HTML elements open inside
 * them, for {@link StreamScan}: template content is not the page, so all that matters is where it
 * ends. It ends at the {@code </template>} of the outermost one. An end tag inside that closes no
 * element opened inside the innermost template open, and an element started in a table row outside a
 * cell (foster parenting in a template), leave the page to the tree: there jsoup's tree and the HTML
 * Standard part ways, or the end tag closes nothing. So does an {@code <a>} that outlives its template
 * (below). Not thread-safe.
 */
final class TemplateContent {

  private String[] open = new String[8];
  private int size;
  private int templates;
  private boolean inRows; // a tr, tbody, … is open without a cell: content would be foster-parented

  /** Whether the scan is in template content. */
  boolean isOpen() {
    return templates > 0;
  }

  /** A {@code <template>} start tag. */
  void openTemplate() {
    templates++;
    push("template");
  }

  /**
   * A start tag read by the HTML rules inside template content (after {@link #openTemplate} for the
   * template itself); returns false where the tree must decide.
   */
  boolean start(String name, boolean isVoid) {
    // An object, applet, marquee, table cell or caption puts a marker in the list of active formatting
    // elements, which the template's end clears instead of its own while the element is open: an <a>
    // opened before it in the template is then made again in the page after </template> (HTML's
    // reconstruction; Chromium does it), a link of the page.
    if (putsMarker(name) && holds("a")) return false;
    switch (name) {
      case "tr", "tbody", "thead", "tfoot", "colgroup", "col", "caption" -> inRows = !name.equals("caption");
      case "td", "th" -> inRows = false;
      case "table" -> inRows = true;
      default -> {
        if (fosters()) return false;
      }
    }
    if (!isVoid) push(name);
    return true;
  }

  /**
   * Whether an element starting now in template content, HTML or an {@code <svg>}, would be
   * foster-parented (a table row open without a cell): the tree decides.
   */
  boolean fosters() {
    return templates > 0 && inRows;
  }

  /** An end tag inside template content; returns false where the tree must decide. */
  boolean end(String name) {
    for (int k = size - 1; k >= 0; k--) {
      if (open[k].equals(name)) {
        for (int j = size - 1; j >= k; j--) {
          if (open[j].equals("template")) templates--;
        }
        size = k;
        if (templates == 0) inRows = false;
        return true;
      }
      // No end tag but a template's reaches past a template: in HTML it closes nothing there (a
      // template is special, and bounds every scope), so the template stays open.
      if (open[k].equals("template")) return false;
    }
    return false;
  }

  private static boolean putsMarker(String name) {
    return switch (name) {
      case "object", "applet", "marquee", "td", "th", "caption" -> true;
      default -> false;
    };
  }

  /** Whether an element of that name is open in template content. */
  private boolean holds(String name) {
    for (int k = 0; k < size; k++) {
      if (open[k].equals(name)) return true;
    }
    return false;
  }

  private void push(String name) {
    if (size == open.length) open = Arrays.copyOf(open, size * 2);
    open[size++] = name;
  }
}
