/**
 * Everything the HTTP edge may be handed, built by the composition root (service/roles/api.ts):
 * its ports, settings and health probes (api/http/context.ts). createApp takes it whole and hands
 * each router the narrow piece it declares.
 */
import type { HealthProbes, HttpPorts, HttpSettings } from './context.js';

export interface Services extends HttpPorts, HttpSettings, HealthProbes {}
