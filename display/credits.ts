/**
 * Credit amounts for display in the web app and the viewer's edit mode: "12.5 credits", at most
 * four decimals (the ledger's amounts are decimal credits, spec part 6), trailing zeros dropped.
 * Pure, no DOM.
 */

/** `n` credits as "12.5 credits" (at most four decimals, trailing zeros dropped). */
export function creditsText(n: number): string {
  return `${Number(n.toFixed(4))} credits`;
}
