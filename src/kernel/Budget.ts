/**
 * A budget: a count against a limit. Pure cores spend it in place (one small
 * mutable record per sequence, so the hot loop allocates nothing) and report
 * exhaustion as a `budget_exceeded` diagnostic with the numbers involved.
 *
 * @since 0.1.0
 */
import { type Diagnostic, diagnostic } from "./Diagnostic.js"

export interface Budget {
  readonly limit: number
  used: number
}

export const makeBudget = (limit: number): Budget => ({ limit, used: 0 })

/** Spends `n` units; false when that would pass the limit (nothing is spent then). */
export const spend = (budget: Budget, n = 1): boolean => {
  if (budget.used + n > budget.limit) return false
  budget.used += n
  return true
}

export const remaining = (budget: Budget): number => budget.limit - budget.used

/** The diagnostic for an exhausted budget; `actual` is what the refused spend of `attempted` units would have reached. */
export const budgetExceeded = (budget: Budget, what: string, subject?: string, attempted = 1): Diagnostic =>
  diagnostic("budget_exceeded", `${what}: budget of ${budget.limit} exhausted`, {
    subject,
    details: { limit: budget.limit, used: budget.used, actual: budget.used + attempted }
  })
