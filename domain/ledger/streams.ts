/** Stream name of an organization's ledger (DESIGN §3); the only place it is built or read. */
const LEDGER_PREFIX = 'ledger-';

export const ledgerStream = (orgId: string): string => `${LEDGER_PREFIX}${orgId}`;
/** The organization of a ledger stream, undefined for any other stream. */
export const ledgerOrgId = (stream: string): string | undefined =>
  stream.startsWith(LEDGER_PREFIX) ? stream.slice(LEDGER_PREFIX.length) : undefined;
