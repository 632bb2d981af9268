/** Stream name of an organization's ledger (DESIGN §3). */
export const ledgerStream = (orgId: string): string => `ledger-${orgId}`;
