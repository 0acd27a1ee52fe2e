/**
 * A scheduled run's time budget (contract, Part four: every sweep finishes or
 * continues). A run checks it after each piece of work and starts no new piece once it
 * is spent, so the run ends well within its function's timeout (the budget plus the
 * longest piece); the next run continues where this one stopped. The first piece is
 * always done, so every run makes progress, however small its budget.
 */
export interface TimeBudget {
  /** True once the budget is used up: start nothing more. */
  spent(): boolean;
}

export function timeBudget(budgetMs: number, clock: () => number = Date.now): TimeBudget {
  const endsAt = clock() + budgetMs;
  return { spent: () => clock() >= endsAt };
}
