/**
 * HTTPS configuration from the environment (spec: JSON over HTTPS): `TLS_CERT_FILE` (PEM
 * certificate, chain after it) and `TLS_KEY_FILE` (PEM private key). Both set → the service
 * serves HTTPS; neither → plain HTTP, for a TLS-terminating proxy in front.
 */
import { readFileSync } from 'node:fs';

/**
 * The certificate and key named by the environment, or undefined when neither is set.
 * Throws Error (with a message fit for the console) when only one is set or a file cannot be read.
 */
export function tlsFromEnvironment(env: NodeJS.ProcessEnv): { cert: Buffer; key: Buffer } | undefined {
  const certFile = env['TLS_CERT_FILE'] || undefined;
  const keyFile = env['TLS_KEY_FILE'] || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) {
    const missing = certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE';
    throw new Error(
      `HTTPS needs both TLS_CERT_FILE and TLS_KEY_FILE; ${missing} is not set (set both for HTTPS, neither for plain HTTP)`,
    );
  }
  const read = (variable: string, file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`cannot read ${variable}=${file}: ${(err as Error).message}`, { cause: err });
    }
  };
  return { cert: read('TLS_CERT_FILE', certFile), key: read('TLS_KEY_FILE', keyFile) };
}
