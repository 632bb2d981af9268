/**
 * Pure parts of the playground and jobs pages (web app: playground and jobs): the JSON editor's reading,
 * the project body of "Save as project", and the jobs page's filters (page address ⇄ filters ⇄
 * GET /v1/jobs query).
 */
import t from 'tap';
import fc from 'fast-check';
import { parseRequestText, projectOf } from '../../webapp/src/playground/request-builder.js';
import {
  filtersOfSearch,
  jobListUrl,
  NO_FILTERS,
  searchOfFilters,
  sourceMatches,
  utcOfLocal,
  JOB_STATUSES,
  type JobFilters,
} from '../../webapp/src/playground/job-filters.js';

t.test('the JSON editor: an object is a request, anything else a problem', async (t) => {
  t.same(parseRequestText('{"vehicles":[],"items":[]}'), { request: { vehicles: [], items: [] } });
  t.match(parseRequestText('{"vehicles":'), { problem: /^the request is not valid JSON/ });
  t.same(parseRequestText('[1]'), { problem: 'the request must be a JSON object with vehicles and items' });
  t.same(parseRequestText('null'), { problem: 'the request must be a JSON object with vehicles and items' });
});

t.test('the project of a request: slots and items without the request ids, groups and options kept', async (t) => {
  const project = projectOf(
    {
      reference: 'r',
      vehicles: [{ id: 'v1', vehicle_id: 'veh_a', quantity: 2 }],
      items: [
        { id: 'i1', label: 'Crate', length: 1, width: 2, height: 3, weight: 4 },
        { template_id: 'tpl_b', quantity: 3 },
      ],
      groups: [{ name: 'g' }],
      options: { time_limit: 5 },
    },
    'My project',
  );
  t.same(project, {
    name: 'My project',
    vehicles: [{ vehicle_id: 'veh_a', quantity: 2 }],
    items: [
      { label: 'Crate', length: 1, width: 2, height: 3, weight: 4 },
      { template_id: 'tpl_b', quantity: 3 },
    ],
    groups: [{ name: 'g' }],
    options: { time_limit: 5 },
  });
  t.throws(
    () => projectOf({ vehicles: [{ type: 'truck', length: 1, width: 1, height: 1, max_weight: 1 }], items: [] }, 'x'),
    /vehicles\[0\] is not a saved vehicle/,
  );
  t.throws(() => projectOf({ items: [] }, 'x'), /no vehicles and items/);
});

t.test('jobs filters: the GET /v1/jobs query, local times in UTC', async (t) => {
  const f: JobFilters = {
    statuses: ['failed', 'canceled'],
    source: 'playground',
    q: ' abc ',
    reference: 'order 7',
    createdAfter: '2026-11-01T10:30',
    createdBefore: '',
    mine: true,
    projectId: 'prj_x',
  };
  t.equal(
    jobListUrl(f, 'CUR', 20, -60),
    '/v1/jobs?limit=20&cursor=CUR&status=failed%2Ccanceled&source=playground&q=abc&reference=order+7&created_after=2026-11-01T09%3A30%3A00.000Z&created_by=me&project_id=prj_x',
  );
  t.equal(jobListUrl(NO_FILTERS, null, 50), '/v1/jobs?limit=50');
  t.equal(utcOfLocal('2026-03-05T23:15', 120), '2026-03-06T01:15:00.000Z');
  t.equal(utcOfLocal('2026-03-05T23:15:30', 0), '2026-03-05T23:15:30.000Z');
});

t.test('jobs filters: unknown values in the page address are dropped', async (t) => {
  t.same(
    filtersOfSearch(new URLSearchParams('status=failed,bogus&source=email&created_after=yesterday&mine=yes')),
    NO_FILTERS_WITH({ statuses: ['failed'] }),
  );
  t.ok(sourceMatches({ source: 'playground' }, { source: 'playground' }));
  t.notOk(sourceMatches({ source: 'api' }, { source: 'playground' }));
  t.ok(sourceMatches({}, { source: 'api' }), 'a job without a source counts as api');
  t.ok(sourceMatches({ source: 'api' }, { source: '' }));
});

function NO_FILTERS_WITH(patch: Partial<JobFilters>): JobFilters {
  return { ...NO_FILTERS, ...patch };
}

t.test('property: the page address of any filters reads back to the same filters', async (t) => {
  const text = fc.string({ maxLength: 20 }).map((s) => s.trim());
  const local = fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 16));
  const filters: fc.Arbitrary<JobFilters> = fc.record({
    statuses: fc.subarray([...JOB_STATUSES]),
    source: fc.constantFrom('' as const, 'api' as const, 'playground' as const),
    q: text,
    reference: text,
    createdAfter: fc.oneof(fc.constant(''), local),
    createdBefore: fc.oneof(fc.constant(''), local),
    mine: fc.boolean(),
    projectId: text,
  });
  fc.assert(
    fc.property(
      filters,
      (f) => JSON.stringify(filtersOfSearch(new URLSearchParams(searchOfFilters(f).toString()))) === JSON.stringify(f),
    ),
    { numRuns: 300 },
  );
  t.pass('300 random filter sets');
});
