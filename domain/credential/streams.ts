/** Stream names of credentials; the only place they are built. */
import { sha256Hex } from '../digest.js';

const CREDENTIAL_PREFIX = 'credential-';

/** An email as the service compares it: trimmed, lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The credential stream of an email: `credential-<sha256 hex of the normalized email>` (no address in stream names). */
export const credentialStream = (email: string): string => `${CREDENTIAL_PREFIX}${sha256Hex(normalizeEmail(email))}`;

/** True for a credential stream (the sessions read model follows password changes). */
export const isCredentialStream = (stream: string): boolean => stream.startsWith(CREDENTIAL_PREFIX);
