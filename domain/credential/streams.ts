/** Stream names of credentials (issue 11); the only place they are built. */
import { sha256Hex } from '../digest.js';

/** An email as the service compares it: trimmed, lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The credential stream of an email: `credential-<sha256 hex of the normalized email>` (no address in stream names). */
export const credentialStream = (email: string): string => `credential-${sha256Hex(normalizeEmail(email))}`;
