/**
 * The organization's vehicle terms for the playground's automatic-vehicles option (spec GET
 * /v1/limits: `max_vehicles_per_request`, vehicles per job incl. auto-added; `rate_card.per_vehicle`,
 * credits per loaded vehicle). Null while unknown or when the limits cannot be read (the option
 * then explains itself without the figures).
 */
import { useEffect, useState } from 'react';
import { call } from '../api.js';

/** Vehicles a job may use (auto-added included) and the price of one loaded vehicle, in credits. */
export interface VehicleTerms {
  maxVehicles: number;
  perVehicleCredits: number;
}

/** Reads GET /v1/limits once. */
export function useVehicleTerms(): VehicleTerms | null {
  const [terms, setTerms] = useState<VehicleTerms | null>(null);
  useEffect(() => {
    let live = true;
    call<{ max_vehicles_per_request: number; rate_card: { per_vehicle: number } }>('GET', '/v1/limits')
      .then(
        (l) =>
          live && setTerms({ maxVehicles: l.max_vehicles_per_request, perVehicleCredits: l.rate_card.per_vehicle }),
      )
      .catch(() => live && setTerms(null));
    return () => {
      live = false;
    };
  }, []);
  return terms;
}
