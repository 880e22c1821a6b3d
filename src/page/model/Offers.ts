/**
 * The order of `discover`'s offers on the page: compatible ones first, then
 * the incompatible ones with their diagnostics, each group in the server's
 * order.
 *
 * @since 0.1.0
 */
import type { OfferDoc } from "./Docs.js"

export const sortOffers = (offers: ReadonlyArray<OfferDoc>): ReadonlyArray<OfferDoc> => [
  ...offers.filter((o) => o.assessment.isCompatible),
  ...offers.filter((o) => !o.assessment.isCompatible)
]
