/** Stream names of web app sessions; the only place they are built or read. */
const SESSION_PREFIX = 'session-';

export const sessionStream = (sessionId: string): string => `${SESSION_PREFIX}${sessionId}`;
/** The session of a session stream, undefined for any other stream. */
export const sessionIdOfStream = (stream: string): string | undefined =>
  stream.startsWith(SESSION_PREFIX) ? stream.slice(SESSION_PREFIX.length) : undefined;
