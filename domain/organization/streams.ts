/** Stream name of an organization (DESIGN §3). */
export const orgStream = (orgId: string): string => `org-${orgId}`;
