/**
 * The free estimate of the request being built (spec POST /v1/estimate: valid, errors, price
 * range, compute budget, balance), asked again 400 ms after the request last changed; answers to
 * an older request are dropped.
 */
import { useEffect, useState } from 'react';
import { call } from '../api.js';
import type { Estimate } from './pack-request.js';

/** The latest estimate of `request` (null while none), the failure of the last call, and whether one is on its way. */
export interface EstimateState {
  estimate: Estimate | null;
  failure: unknown;
  pending: boolean;
}

/** Estimates `request` (a parsed body, or null for nothing to estimate) whenever its JSON changes. */
export function useEstimate(request: unknown): EstimateState {
  const [state, setState] = useState<EstimateState>({ estimate: null, failure: null, pending: false });
  const key = request === null ? '' : JSON.stringify(request);
  useEffect(() => {
    if (key === '') {
      setState({ estimate: null, failure: null, pending: false });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, pending: true }));
    const timer = setTimeout(() => {
      call<Estimate>('POST', '/v1/estimate', JSON.parse(key))
        .then((estimate) => live && setState({ estimate, failure: null, pending: false }))
        .catch((failure: unknown) => live && setState({ estimate: null, failure, pending: false }));
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key]);
  return state;
}
