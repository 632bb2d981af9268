/**
 * A job watched while it runs (spec "Polling": GET /v1/jobs/{id} until the status is final; every
 * second here, the reference flow uses 2 s). Polling stops at a final status, on unmount and when
 * the id changes.
 */
import { useCallback, useEffect, useState } from 'react';
import { call } from '../api.js';
import { isFinal, type Job } from './pack-request.js';

const POLL_MS = 1000;

/** The job `id` (null: none), the failure of the last read, and `update` to put a newer copy (e.g. the answer of a cancel). */
export function useJob(id: string | null): { job: Job | null; failure: unknown; update: (job: Job) => void } {
  const [job, setJob] = useState<Job | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    setJob(null);
    setFailure(null);
  }, [id]);

  useEffect(() => {
    if (id === null) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    call<Job>('GET', `/v1/jobs/${encodeURIComponent(id)}`)
      .then((j) => {
        if (!live) return;
        setJob(j);
        setFailure(null);
        if (!isFinal(j.status)) timer = setTimeout(() => setRound((n) => n + 1), POLL_MS);
      })
      .catch((err: unknown) => live && setFailure(err));
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [id, round]);

  const update = useCallback((j: Job) => setJob(j), []);
  return { job, failure, update };
}
