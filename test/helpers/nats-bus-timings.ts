/**
 * Short {@link NatsBusTimings} for tests of the NATS bus (distributed profile), so a test takes
 * seconds beyond the fault it makes: a stall is found within 1.5 s, a returning server is dialled
 * within 300 ms, a publish waits 2 s for a connection that is down.
 */
import type { NatsBusTimings } from '../../adapters/nats/bus.js';

/** Test timings, ms (the defaults are DEFAULT_NATS_BUS_TIMINGS in adapters/nats/bus.ts). */
export const FAST_NATS_BUS_TIMINGS: NatsBusTimings = {
  reconnectMinWaitMs: 50,
  reconnectMaxWaitMs: 300,
  pingIntervalMs: 500,
  maxPingOut: 2,
  connectTimeoutMs: 1000,
  pullRetryMaxWaitMs: 500,
  publishWaitMs: 2000,
};
