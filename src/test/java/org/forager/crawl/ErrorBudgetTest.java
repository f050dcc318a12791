package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErrorBudgetTest {

  @Test
  void aBurstWithinTheWindowIsOverBudgetScatteredErrorsAreNot() {
    ErrorBudget budget = new ErrorBudget(3, 1_000);
    assertFalse(budget.overBudget(0));
    assertFalse(budget.overBudget(10));
    assertFalse(budget.overBudget(20));
    assertTrue(budget.overBudget(30), "four errors within the window");

    ErrorBudget scattered = new ErrorBudget(3, 1_000);
    for (long t = 0; t < 10_000; t += 400) assertFalse(scattered.overBudget(t), "at most three per window");
  }
}
