package org.forager.crawl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErrorBudgetTest {

  @Test
  void aBurstOnManyOriginsWithinTheWindowIsOverBudgetScatteredErrorsAreNot() {
    ErrorBudget budget = new ErrorBudget(3, 1_000);
    assertFalse(budget.overBudget(0, "a"));
    assertFalse(budget.overBudget(10, "b"));
    assertFalse(budget.overBudget(20, "c"));
    assertTrue(budget.overBudget(30, "d"), "four origins within the window");

    ErrorBudget scattered = new ErrorBudget(3, 1_000);
    for (long t = 0; t < 10_000; t += 400) assertFalse(scattered.overBudget(t, "o" + t), "at most three per window");
  }

  /** One site setting off error after error stopped every site's crawl (an attacker's review, session 67). */
  @Test
  void errorsOfOneOriginAreOneOriginHoweverMany() {
    ErrorBudget budget = new ErrorBudget(3, 1_000);
    for (int i = 0; i < 1_000; i++) assertFalse(budget.overBudget(i / 10, "hostile"));
    assertFalse(budget.overBudget(500, "b"));
    assertFalse(budget.overBudget(600, "c"));
    assertTrue(budget.overBudget(700, "d"));
    assertFalse(budget.overBudget(5_000, "e"), "the window moved on: one origin in it");
  }
}
