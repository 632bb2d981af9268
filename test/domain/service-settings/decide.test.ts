/**
 * Maintenance mode: the service settings decider starts and ends it, idempotently;
 * the read model's fold applies an event once.
 */
import t from 'tap';
import { serviceSettingsDecider, type ServiceSettingsCommand } from '../../../domain/service-settings/decide.js';
import type { ServiceSettingsEvent } from '../../../domain/service-settings/settings.js';
import { SERVICE_SETTINGS_STREAM } from '../../../domain/service-settings/streams.js';
import { serviceActor } from '../../../domain/decider/actor.js';
import { MemoryReadStore } from '../../../adapters/memory/read-store.js';
import {
  SERVICE_SETTINGS,
  SERVICE_SETTINGS_ID,
  serviceSettingsProjection,
  type ServiceSettingsDocument,
} from '../../../projections/service-settings/projection.js';
import { deciderSpec, NOW, LATER } from '../../helpers/decider-spec.js';

const metadata = { now: LATER, actor: serviceActor('admin') };
const start = (message: string, retryAfterSeconds = 300): ServiceSettingsCommand => ({
  type: 'StartMaintenance',
  data: { message, retryAfterSeconds },
  metadata,
});
const end: ServiceSettingsCommand = { type: 'EndMaintenance', data: {}, metadata };
const started = (message: string, retryAfterSeconds = 300, at = LATER): ServiceSettingsEvent => ({
  type: 'MaintenanceStarted',
  data: { message, retryAfterSeconds, startedAt: at, by: 'service:admin' },
});

t.test('start, the same again (no event), new words, end, end again (no event)', async (t) => {
  const { given } = deciderSpec(t, serviceSettingsDecider);
  t.same(
    given([])
      .when(start('db upgrade'))
      .then([started('db upgrade')]).state.maintenance,
    { message: 'db upgrade', retryAfterSeconds: 300 },
  );
  given([started('db upgrade', 300, NOW)])
    .when(start('db upgrade'))
    .thenNothing('on while on');
  given([started('db upgrade', 300, NOW)])
    .when(start('db upgrade', 60))
    .then([started('db upgrade', 60)]);
  given([started('db upgrade', 300, NOW)])
    .when(start('longer'))
    .then([started('longer')]);
  const off = given([started('db upgrade', 300, NOW)])
    .when(end)
    .then([{ type: 'MaintenanceEnded', data: { endedAt: LATER, by: 'service:admin' } }]);
  t.equal(off.state.maintenance, null);
  given([]).when(end).thenNothing('off while off');
  given([]).when(start('x', 0)).thenThrows('validation_failed');
});

t.test('the read model: on, the same event twice leaves it unchanged, off', async (t) => {
  const reads = new MemoryReadStore();
  const recorded = (e: ServiceSettingsEvent, position: number) => ({
    id: `e${position}`,
    type: e.type,
    data: e.data,
    metadata: {},
    stream: SERVICE_SETTINGS_STREAM,
    revision: position - 1,
    position,
    recordedAt: NOW,
  });
  const doc = () => reads.collection<ServiceSettingsDocument>(SERVICE_SETTINGS).get(SERVICE_SETTINGS_ID);
  await serviceSettingsProjection.apply(recorded(started('db upgrade', 300, NOW), 1), reads);
  t.same(await doc(), {
    id: SERVICE_SETTINGS_ID,
    maintenance: { message: 'db upgrade', retryAfterSeconds: 300, since: NOW },
    position: 1,
  });
  const endEvent: ServiceSettingsEvent = { type: 'MaintenanceEnded', data: { endedAt: LATER, by: 'service:admin' } };
  await serviceSettingsProjection.apply(recorded(endEvent, 2), reads);
  await serviceSettingsProjection.apply(recorded(started('db upgrade', 300, NOW), 1), reads);
  t.same(
    await doc(),
    { id: SERVICE_SETTINGS_ID, maintenance: null, position: 2 },
    'a redelivered older event changes nothing',
  );
  await serviceSettingsProjection.apply({ ...recorded(started('elsewhere'), 3), stream: 'org-x' }, reads);
  t.equal((await doc())?.position, 2, 'events of other streams are not folded');
});
