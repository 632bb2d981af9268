/**
 * The job page's "Re-plan from step K" form (plan editing, design §4): a revision (the one shown
 * in the viewer unless another is chosen), a vehicle of its plan and a loading step K; the button
 * estimates the job's request with everything loaded up to step K pinned (replan.ts), asks to
 * confirm at most its price (charged-start.tsx), then posts it as a new job and opens that job.
 * Failures (an expired request, a refused estimate, the service's 422) show in the error banner.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PackRequest, Result } from '../playground/pack-request.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Field } from '../ui/field.js';
import { useChargedStart } from './charged-start.js';
import { postJob, readReplanForm, replanRequestOf, vehicleChoices } from './replan.js';
import { revisionName } from './revision-list.js';

/**
 * The form for job `jobId`; `revisions`: the revision numbers listed (the original plan is always
 * offered); `shownRevision`: the default; `resultOf` reads a revision's Result.
 */
export function ReplanForm({
  jobId,
  revisions,
  shownRevision,
  resultOf,
}: {
  jobId: string;
  revisions: readonly number[];
  shownRevision: number;
  resultOf: (revision: number) => Promise<Result>;
}) {
  const navigate = useNavigate();
  const [chosenRevision, setChosenRevision] = useState<number | null>(null);
  const revision = chosenRevision ?? shownRevision;
  const [result, setResult] = useState<Result | null>(null);
  const [readFailure, setReadFailure] = useState<unknown>(null);
  const [vehicle, setVehicle] = useState('0');
  const [step, setStep] = useState('0');
  const [errors, setErrors] = useState<{ vehicle?: string; step?: string }>({});
  const charged = useChargedStart<PackRequest>();

  useEffect(() => {
    let live = true;
    setResult(null);
    setReadFailure(null);
    resultOf(revision).then(
      (r) => {
        if (!live) return;
        setResult(r);
        setVehicle((v) => (Number(v) < r.vehicles.length ? v : '0'));
      },
      (err: unknown) => live && setReadFailure(err),
    );
    return () => {
      live = false;
    };
  }, [revision, resultOf]);

  const offered = [...new Set([...revisions, shownRevision, revision, 0])].sort((a, b) => b - a);
  const choices = result ? vehicleChoices(result) : [];
  const units = choices[Number(vehicle)]?.units ?? 0;

  async function submit() {
    if (!result) return;
    const read = readReplanForm(result, { vehicle, step });
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    await charged.ask({
      title: `Re-plan from step ${read.step}?`,
      confirmLabel: 'Re-plan',
      prepare: () => replanRequestOf(jobId, result, read.vehicle, read.step),
      start: postJob,
      started: (job) => void navigate(`/jobs/${encodeURIComponent(job.id)}`),
    });
  }

  return (
    <section aria-labelledby="replan-heading" className="replan">
      <h2 id="replan-heading">Re-plan from step K</h2>
      <p>
        Re-planning keeps every unit loaded up to step K where it is and packs the rest again as a new job, billed like
        any job.
      </p>
      <ErrorBanner error={readFailure} />
      <form
        className="replan-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label="Revision">
          {(input) => (
            <select {...input} value={revision} onChange={(e) => setChosenRevision(Number(e.target.value))}>
              {offered.map((r) => (
                <option key={r} value={r}>
                  {revisionName(r)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Vehicle" errors={errors.vehicle ? [errors.vehicle] : []}>
          {(input) => (
            <select {...input} value={vehicle} disabled={!result} onChange={(e) => setVehicle(e.target.value)}>
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Step K"
          hint={`0 to ${units}: the units of loading steps 1 to K of this vehicle, and every vehicle before it, stay.`}
          errors={errors.step ? [errors.step] : []}
        >
          {(input) => (
            <input
              {...input}
              type="number"
              inputMode="numeric"
              min={0}
              max={units}
              step={1}
              value={step}
              onChange={(e) => setStep(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={charged.busy || !result}>
          {charged.busy ? 'Re-planning…' : 'Re-plan from step K'}
        </button>
      </form>
      <ErrorBanner error={charged.failure} />
      {charged.dialog}
    </section>
  );
}
