/**
 * The organization's display units in its read model (`organizations`, `displayUnits`): absent
 * (metric) until chosen, then the latest choice; applying every event twice leaves the document
 * as applying them once (STYLE).
 */
import t from 'tap';
import { MemoryReadStore } from '../../adapters/memory/read-store.js';
import type { RecordedEvent } from '../../domain/ports/event-store.js';
import { DEFAULT_LIMITS } from '../../domain/organization/limits.js';
import {
  ORGANIZATIONS,
  organizationsProjection,
  type OrganizationDocument,
} from '../../projections/organizations/projection.js';

const NOW = '2026-11-22T10:00:00.000Z';
let position = 0;
const rec = (type: string, data: unknown): RecordedEvent => ({
  id: `e${++position}`,
  type,
  data,
  metadata: {},
  stream: 'org-o1',
  revision: 0,
  position,
  recordedAt: NOW,
});

const created = rec('OrganizationCreated', {
  orgId: 'o1',
  name: 'O',
  limits: DEFAULT_LIMITS,
  axleAccess: false,
  createdAt: NOW,
});
const imperial = rec('DisplayUnitsChosen', { displayUnits: 'imperial', chosenAt: NOW, by: 'usr_o' });
const metric = rec('DisplayUnitsChosen', { displayUnits: 'metric', chosenAt: NOW, by: 'usr_o' });

async function fold(events: RecordedEvent[], times = 1): Promise<OrganizationDocument | undefined> {
  const store = new MemoryReadStore();
  for (let i = 0; i < times; i++) for (const e of events) await organizationsProjection.apply(e, store);
  return store.collection<OrganizationDocument>(ORGANIZATIONS).get('o1');
}

t.test('absent until chosen, then the latest choice; twice is once', async (t) => {
  t.equal((await fold([created]))?.displayUnits, undefined, 'metric by absence');
  t.equal((await fold([created, imperial]))?.displayUnits, 'imperial');
  t.equal((await fold([created, imperial, metric]))?.displayUnits, 'metric');
  t.same(
    await fold([created, imperial, metric], 2),
    await fold([created, imperial, metric], 1),
    'applying twice changes nothing',
  );
});
