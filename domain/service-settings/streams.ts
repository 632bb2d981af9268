/** Stream name of the service settings (one stream for the whole service); the only place it is built. */
export const SERVICE_SETTINGS_STREAM = 'service-settings';

/** Whether `stream` is the service settings stream. */
export const isServiceSettingsStream = (stream: string): boolean => stream === SERVICE_SETTINGS_STREAM;
