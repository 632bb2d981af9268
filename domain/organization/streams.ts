/** Stream name of an organization (DESIGN §3); the only place it is built or read. */
const ORG_PREFIX = 'org-';

export const orgStream = (orgId: string): string => `${ORG_PREFIX}${orgId}`;
/** The organization of an organization stream, undefined for any other stream. */
export const orgIdOfStream = (stream: string): string | undefined =>
  stream.startsWith(ORG_PREFIX) ? stream.slice(ORG_PREFIX.length) : undefined;
