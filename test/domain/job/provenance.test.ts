/**
 * Job provenance (webapp/src/jobs/provenance.ts): the reference a Re-run or a Re-plan gives the
 * new job, and the parent read back from it.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  parentOf,
  REFERENCE_MAX_LENGTH,
  referenceFor,
  replanReference,
  rerunReference,
  withReference,
} from '../../../domain/job/provenance.js';

t.test('a job without a reference gets one naming its parent, read back as that parent', async (t) => {
  const request: { items: string[]; reference?: string } = { items: [] };
  t.same(withReference(request, rerunReference('job_a1')), { items: [], reference: 'Re-run of job_a1' });
  t.same(parentOf('Re-run of job_a1'), { kind: 'rerun', jobId: 'job_a1' });
  t.equal(replanReference('job_b2', 3, 0), 'Re-plan of job_b2 from step 3 of vehicle 1');
  t.same(parentOf('Re-plan of job_b2 from step 3 of vehicle 1'), {
    kind: 'replan',
    jobId: 'job_b2',
    step: 3,
    vehicle: 1,
  });
});

t.test("the planner's own reference is kept; one the web app wrote is replaced", async (t) => {
  t.equal(referenceFor('PO-7781 route 4', rerunReference('job_x')), 'PO-7781 route 4');
  t.equal(referenceFor('', rerunReference('job_x')), 'Re-run of job_x');
  t.equal(referenceFor('Re-run of job_a', rerunReference('job_b')), 'Re-run of job_b', 'the nearest parent');
});

t.test('other texts name no parent', async (t) => {
  for (const r of [
    null,
    undefined,
    '',
    'walk',
    'Re-run of job_a extra',
    'Re-run of prj_a',
    'Re-plan of job_a from step x of vehicle 1',
  ])
    t.equal(parentOf(r), null, String(r));
});

t.test('the reference is never longer than the spec allows, and a generated one reads back', async () => {
  fc.assert(
    fc.property(
      fc.option(fc.string({ maxLength: 300 })),
      fc.stringMatching(/^job_[A-Za-z0-9_-]{1,60}$/),
      (source, id) => {
        const r = referenceFor(source, rerunReference(id));
        return (
          r.length <= REFERENCE_MAX_LENGTH && (source && parentOf(source) === null ? true : parentOf(r)?.jobId === id)
        );
      },
    ),
  );
});
