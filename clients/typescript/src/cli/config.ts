/**
 * Where the `packing` command finds the service and the key: the key from
 * PACKING_API_KEY, else `api_key` of the config file; never from the command line (it would land
 * in shell history and process lists). The address from PACKING_API_URL, else `api_url` of the
 * config file, else http://localhost:8080. The config file is $PACKING_CONFIG, else
 * $XDG_CONFIG_HOME/packing/config.json, else ~/.config/packing/config.json: JSON
 * `{"api_key": "pk_live_…", "api_url": "https://…"}` that must have mode 0600 (no access for
 * group or others), else it is refused.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BASE_URL } from '../client.js';
import { CliUsageError, EXIT } from './exit-codes.js';

/** What the CLI connects with. */
export interface CliConfig {
  baseUrl: string;
  /** null when neither the environment nor the config file has one. */
  apiKey: string | null;
  /** The config file consulted (whether or not it exists). */
  configFile: string;
}

/** The config file path for `env`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env['PACKING_CONFIG']) return env['PACKING_CONFIG'];
  const base = env['XDG_CONFIG_HOME'] || join(homedir(), '.config');
  return join(base, 'packing', 'config.json');
}

/**
 * The configuration from `env` and the config file. Throws CliUsageError when the file is
 * readable by group or others (exit 4) or is not a JSON object (exit 2).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  const configFile = configPath(env);
  let file: { api_key?: unknown; api_url?: unknown } = {};
  let mode: number | null = null;
  try {
    mode = statSync(configFile).mode;
  } catch {
    // no config file: the environment alone
  }
  if (mode !== null) {
    if ((mode & 0o077) !== 0) {
      throw new CliUsageError(
        `${configFile} is readable by others (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${configFile}`,
        EXIT.auth,
      );
    }
    try {
      file = JSON.parse(readFileSync(configFile, 'utf8')) as typeof file;
    } catch (error) {
      throw new CliUsageError(`${configFile} is not valid JSON: ${(error as Error).message}`);
    }
    if (file === null || typeof file !== 'object')
      throw new CliUsageError(`${configFile} must hold a JSON object {"api_key", "api_url"}`);
  }
  const apiKey = env['PACKING_API_KEY'] || (typeof file.api_key === 'string' ? file.api_key : null);
  const baseUrl = env['PACKING_API_URL'] || (typeof file.api_url === 'string' ? file.api_url : DEFAULT_BASE_URL);
  return { baseUrl, apiKey, configFile };
}
