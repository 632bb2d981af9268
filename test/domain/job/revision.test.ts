/**
 * The plan revision decider (domain/job/revision.ts): revision N+1 only on the latest revision N
 * (409 conflict for an older or a future base), never with problems (422 validation_failed with
 * exactly those details); the history keeps summaries only. Then the decider against the real
 * SQLite store with handleCommand: two saves decided on the same base, appended concurrently by two
 * processes' worth of handling (no shared in-process queue), store one and refuse the other.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  revisionDecider,
  type EncodedRevisionContent,
  type JobRevisionEvent,
  type RevisePlan,
} from '../../../domain/job/revision.js';
import { decodeRevisionContent, encodeRevisionContent, readPlanRevised } from '../../../domain/job/revision-content.js';
import { jobRevisionStream } from '../../../domain/job/streams.js';
import { handleCommand } from '../../../domain/decider/handle.js';
import { DomainError } from '../../../domain/errors.js';
import { SqliteEventStore } from '../../../adapters/sqlite/event-store.js';
import { ACTOR, deciderSpec, LATER, NOW } from '../../helpers/decider-spec.js';

const content: EncodedRevisionContent = { encoding: 'br+base64', digest: 'd', bytes: 2, data: 'AA==' };

const revise = (baseRevision: number, options: Partial<RevisePlan['data']> = {}, now = LATER): RevisePlan => ({
  type: 'RevisePlan',
  data: {
    jobId: 'job_1',
    eventId: `e${baseRevision}`,
    baseRevision,
    operationsCount: 2,
    problems: [],
    content,
    ...options,
  },
  metadata: { now, actor: ACTOR },
});

const revised = (revision: number): JobRevisionEvent => ({
  type: 'PlanRevised',
  id: `e${revision - 1}`,
  data: {
    jobId: 'job_1',
    revision,
    baseRevision: revision - 1,
    createdAt: NOW,
    createdBy: ACTOR,
    operationsCount: 2,
    content,
  },
});

t.test('the first revision is made on revision 0, the next on the latest', async (t) => {
  const { given } = deciderSpec(t, revisionDecider);
  given([])
    .when(revise(0))
    .then([{ ...revised(1), data: { ...revised(1).data, createdAt: LATER } }]);
  const out = given([revised(1), revised(2)])
    .when(revise(2))
    .then([{ ...revised(3), data: { ...revised(3).data, createdAt: LATER } }]);
  t.same(
    out.state.revisions.map((r) => r.revision),
    [1, 2, 3],
  );
  t.notOk('content' in out.state.revisions[0]!, 'the history keeps summaries, not the layouts');
});

t.test('a base that is not the latest: conflict, whether older or ahead', async (t) => {
  const { given } = deciderSpec(t, revisionDecider);
  const older = given([revised(1), revised(2)])
    .when(revise(1))
    .thenThrows('conflict');
  t.match(older?.message, /revision 1 of job job_1 is not the latest \(the latest is 2\)/);
  const ahead = given([revised(1)])
    .when(revise(3))
    .thenThrows('conflict');
  t.match(ahead?.message, /job job_1 has no revision 3 yet \(the latest is 1\)/);
  // A stale base is refused before its problems: they were found on an old plan.
  given([revised(1)])
    .when(revise(0, { problems: [{ path: 'result', code: 'overlap', message: 'x' }], content: null }))
    .thenThrows('conflict');
});

t.test('problems: validation_failed with exactly those details, nothing stored', async (t) => {
  const { given } = deciderSpec(t, revisionDecider);
  const problems = [
    { path: 'operations[0]', code: 'overlap', message: 'box#1 overlaps box#2' },
    { path: 'result', code: 'weight', message: 'vehicle 0 carries 2100 kg, max 2000 kg' },
  ];
  const err = given([revised(1)])
    .when(revise(1, { problems, content: null }))
    .thenThrows('validation_failed', problems);
  t.match(err?.message, /2 problems/);
});

t.test('content round trip; two concurrent saves on one base in the SQLite store: one stored', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'revision-decider-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const value = { layout: { vehicles: [{ vehicle_id: 'van', copy: 1, placements: [] }] }, operations: [] };
  const encoded = await encodeRevisionContent(value);
  t.same(await decodeRevisionContent(encoded), value, 'encoded and decoded back');

  await handleCommand(store, jobRevisionStream('job_1'), revisionDecider, revise(0, { content: encoded }, NOW));
  // Both decided on revision 1 by "two processes": each decides, then both append expecting revision 0.
  const stream = jobRevisionStream('job_1');
  const attempt = (eventId: string) =>
    store.append(
      stream,
      revisionDecider
        .decide(revise(1, { eventId, content: encoded }), { revisions: [revised(1).data] })
        .map((e) => ({ id: e.id!, type: e.type, data: e.data })),
      0,
    );
  const outcomes = await Promise.allSettled([attempt('a'), attempt('b')]);
  t.same(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
  t.equal((await store.readStream(stream)).length, 2, 'revisions 1 and 2 stored, once');
  // Through handleCommand the loser reloads and is refused with conflict.
  await t.rejects(
    handleCommand(store, stream, revisionDecider, revise(1, { eventId: 'c', content: encoded })),
    new DomainError('conflict', ''),
  );
  t.equal((await readPlanRevised(store, 'job_1', 2))?.revision, 2);
  t.equal(await readPlanRevised(store, 'job_1', 3), null, 'no revision 3');
});
