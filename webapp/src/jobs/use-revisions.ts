/**
 * A job's plan revisions read for the job page (plan editing, design §2): the list
 * (GET /v1/jobs/{id}/revisions, newest first, a page at a time with "Show more") and the Result
 * of each revision (GET /v1/jobs/{id}/result?revision=N), each read once and kept while the
 * page is open.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { call } from '../api.js';
import type { Result } from '../playground/pack-request.js';
import { revisionResultPath, revisionsPath, type RevisionEntry, type RevisionPage } from './revision-list.js';

/** The revisions listed so far and how to read more. */
export interface RevisionsState {
  /** Entries read so far, newest first; null until the first page is in. */
  entries: RevisionEntry[] | null;
  /** The cursor of the next page; '' when the last page is in. */
  nextCursor: string;
  /** The failure of the last read (null when it went well). */
  failure: unknown;
  /** True while a page is being read. */
  loading: boolean;
  /** Reads the next page and adds its entries. */
  showMore: () => void;
  /** Reads the first page again (after a save), dropping the pages read before. */
  reload: () => void;
}

/** The revisions of job `jobId` (null: none, nothing is read). */
export function useRevisions(jobId: string | null): RevisionsState {
  const [entries, setEntries] = useState<RevisionEntry[] | null>(null);
  const [nextCursor, setNextCursor] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  // Each read gets a number; an answer is taken only while its read is the latest one.
  const latest = useRef(0);

  const read = useCallback(
    (cursor: string) => {
      if (jobId === null) return;
      const ticket = ++latest.current;
      setLoading(true);
      call<RevisionPage>('GET', revisionsPath(jobId, cursor)).then(
        (page) => {
          if (ticket !== latest.current) return;
          setEntries((before) => (cursor && before ? [...before, ...page.data] : page.data));
          setNextCursor(page.next_cursor ?? '');
          setFailure(null);
          setLoading(false);
        },
        (err: unknown) => {
          if (ticket !== latest.current) return;
          setFailure(err);
          setLoading(false);
        },
      );
    },
    [jobId],
  );

  useEffect(() => {
    setEntries(null);
    setNextCursor('');
    setFailure(null);
    read('');
    return () => {
      latest.current += 1;
    };
  }, [read]);

  const showMore = useCallback(() => {
    if (nextCursor) read(nextCursor);
  }, [read, nextCursor]);
  const reload = useCallback(() => read(''), [read]);
  return { entries, nextCursor, failure, loading, showMore, reload };
}

/** The Results of a job's revisions read so far, and how to ask for one. */
export interface RevisionResults {
  /** Results by revision number. */
  results: ReadonlyMap<number, Result>;
  /** Failures by revision number (e.g. 404 for a revision the service does not know). */
  failures: ReadonlyMap<number, unknown>;
  /** The Result of `revision`: read once, then kept; rejects with the read's ApiFailure. */
  resultOf: (revision: number) => Promise<Result>;
}

/** Results and failures read into one set of reads (`of`). */
interface ReadResults {
  of: Map<number, Promise<Result>>;
  results: ReadonlyMap<number, Result>;
  failures: ReadonlyMap<number, unknown>;
}

/**
 * The Results of job `jobId`'s revisions, each read once while the page is open; read again
 * when `links` (the job's viewer_url) changes: revoked links make the Results' links new too.
 */
export function useRevisionResults(jobId: string, links: string): RevisionResults {
  // One set of reads per job and links; answers of an earlier set are dropped.
  const reads = useMemo(() => new Map<number, Promise<Result>>(), [jobId, links]);
  const [read, setRead] = useState<ReadResults>(() => ({ of: reads, results: new Map(), failures: new Map() }));

  const resultOf = useCallback(
    (revision: number): Promise<Result> => {
      const known = reads.get(revision);
      if (known) return known;
      /** `change` applied to the state of this set of reads (a fresh one when the state is of an earlier set). */
      const update = (change: (r: ReadResults) => Partial<ReadResults>) =>
        setRead((r) => {
          const mine = r.of === reads ? r : { of: reads, results: new Map(), failures: new Map() };
          return { ...mine, ...change(mine) };
        });
      const reading = call<Result>('GET', revisionResultPath(jobId, revision)).then(
        (result) => {
          update((r) => {
            const failures = new Map(r.failures);
            failures.delete(revision);
            return { results: new Map(r.results).set(revision, result), failures };
          });
          return result;
        },
        (err: unknown) => {
          // A failed read is tried again the next time it is asked for.
          reads.delete(revision);
          update((r) => ({ failures: new Map(r.failures).set(revision, err) }));
          throw err;
        },
      );
      reads.set(revision, reading);
      return reading;
    },
    [jobId, reads],
  );
  const current = read.of === reads ? read : { results: new Map(), failures: new Map() };
  return { results: current.results, failures: current.failures, resultOf };
}
