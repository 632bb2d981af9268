/**
 * The free estimate of the request being built (spec POST /v1/estimate: valid, errors, price
 * range, compute budget, balance), asked again 400 ms after the request last changed; answers to
 * an older request are dropped. Until the answer for the request as it is now arrives, the last
 * estimate is kept but marked not `current`: its price, bounds and problems are of an earlier request.
 */
import { useEffect, useState } from 'react';
import { call } from '../api.js';
import type { Estimate } from './pack-request.js';

/**
 * The latest estimate (null while none), the failure of the last call, whether a call is on its
 * way, and whether the estimate is of the request as it is now (false from the edit until its answer).
 */
export interface EstimateState {
  estimate: Estimate | null;
  failure: unknown;
  pending: boolean;
  current: boolean;
}

/** The hook's state: the last answer and the request (its JSON) it answered. */
interface Answered {
  estimate: Estimate | null;
  failure: unknown;
  pending: boolean;
  key: string;
}

/** Estimates `request` (a parsed body, or null for nothing to estimate) whenever its JSON changes. */
export function useEstimate(request: unknown): EstimateState {
  const [state, setState] = useState<Answered>({ estimate: null, failure: null, pending: false, key: '' });
  const key = request === null ? '' : JSON.stringify(request);
  useEffect(() => {
    if (key === '') {
      setState({ estimate: null, failure: null, pending: false, key });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, pending: true }));
    const timer = setTimeout(() => {
      call<Estimate>('POST', '/v1/estimate', JSON.parse(key))
        .then((estimate) => live && setState({ estimate, failure: null, pending: false, key }))
        .catch((failure: unknown) => live && setState({ estimate: null, failure, pending: false, key }));
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  const { estimate, failure, pending } = state;
  return { estimate, failure, pending, current: state.key === key };
}
