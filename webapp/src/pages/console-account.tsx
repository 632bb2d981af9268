/**
 * Console: account (owner only): the balance (GET /v1/balance:
 * available, subscription with its expiry, purchased, held by running jobs), the limits and rate
 * card (GET /v1/limits) and the usage of the last 30 days (GET /v1/usage?group_by=day): jobs and
 * credits per day and credits by price component, as SVG bar charts with tables for screen
 * readers; and the organization's display units (metric or imperial, units/display-units-setting.tsx).
 */
import { useEffect, useState } from 'react';
import { call } from '../api.js';
import { BarChart } from '../ui/bar-chart.js';
import { ErrorBanner } from '../ui/error-banner.js';
import { Page } from '../ui/page.js';
import { DisplayUnitsSetting } from '../units/display-units-setting.js';

/** Spec Balance (credits). */
interface Balance {
  available_credits: number;
  subscription_credits: number;
  subscription_expires_at: string | null;
  purchased_credits: number;
  reserved_credits: number;
}

/** Spec Limits record (fields as the service publishes them). */
interface Limits {
  max_items_per_request: number;
  max_vehicles_per_request: number;
  max_time_limit_seconds: number;
  concurrency: number;
  max_queued_jobs: number;
  retention_days: number;
  allowed_vehicle_types: string[];
  max_projects?: number;
  max_saved_items?: number;
  rate_limits: { per_key: Record<string, number>; per_organization: Record<string, number> };
  rate_card: Record<string, number | string>;
}

/** Usage figures of a day or of the whole range (GET /v1/usage). */
interface UsageFigures {
  jobs: number;
  credits: number;
  by_component: Record<string, number>;
  compute_ms: number;
  items_placed: number;
  vehicles_used: number;
}

/** Answer of GET /v1/usage?group_by=day. */
interface Usage {
  from: string;
  to: string;
  totals: UsageFigures;
  days: (UsageFigures & { date: string })[];
}

const credits = (v: number): string => v.toLocaleString(undefined, { maximumFractionDigits: 4 });
const words = (key: string): string => key.replace(/_/g, ' ');

/** The account page: heading "Account", sections "Balance", "Usage", "Display units", "Limits", "Rate card". */
export function AccountPage() {
  const [balance, setBalance] = useState<Balance | null>(null);
  const [limits, setLimits] = useState<Limits | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    call<Balance>('GET', '/v1/balance').then(setBalance, setError);
    call<Limits>('GET', '/v1/limits').then(setLimits, setError);
    call<Usage>('GET', '/v1/usage?group_by=day').then(setUsage, setError);
  }, []);

  return (
    <Page title="Account">
      <ErrorBanner error={error} />
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading">Balance</h2>
        {balance ? (
          <div className="cards">
            <div className="card">
              <div className="figure">{credits(balance.available_credits)}</div>
              <div className="label">credits available</div>
            </div>
            <div className="card">
              <div className="figure">{credits(balance.subscription_credits)}</div>
              <div className="label">
                subscription credits
                {balance.subscription_expires_at
                  ? `, expire ${new Date(balance.subscription_expires_at).toLocaleDateString()}`
                  : ''}
              </div>
            </div>
            <div className="card">
              <div className="figure">{credits(balance.purchased_credits)}</div>
              <div className="label">purchased credits</div>
            </div>
            <div className="card">
              <div className="figure">{credits(balance.reserved_credits)}</div>
              <div className="label">held for running jobs</div>
            </div>
          </div>
        ) : (
          <p role="status">Loading…</p>
        )}
      </section>
      <section aria-labelledby="usage-heading">
        <h2 id="usage-heading">Usage{usage ? ` ${usage.from} to ${usage.to}` : ''}</h2>
        {usage ? (
          <>
            <p>
              {usage.totals.jobs} jobs, {credits(usage.totals.credits)} credits charged,{' '}
              {(usage.totals.compute_ms / 1000).toLocaleString()} s of compute, {usage.totals.items_placed} units placed
              in {usage.totals.vehicles_used} vehicles.
            </p>
            <BarChart
              title="Credits per day"
              unit="credits"
              format={credits}
              data={usage.days.map((d) => ({ label: d.date, value: d.credits }))}
            />
            <BarChart
              title="Jobs per day"
              unit="jobs"
              data={usage.days.map((d) => ({ label: d.date, value: d.jobs }))}
            />
            <BarChart
              title="Credits by component"
              unit="credits"
              format={credits}
              data={Object.entries(usage.totals.by_component).map(([k, v]) => ({ label: words(k), value: v }))}
            />
          </>
        ) : (
          <p role="status">Loading…</p>
        )}
      </section>
      <DisplayUnitsSetting />
      {limits ? (
        <>
          <section aria-labelledby="limits-heading">
            <h2 id="limits-heading">Limits</h2>
            <table>
              <tbody>
                {Object.entries(limits)
                  .filter(([, v]) => typeof v === 'number')
                  .map(([k, v]) => (
                    <tr key={k}>
                      <th scope="row">{words(k)}</th>
                      <td className="num">{String(v)}</td>
                    </tr>
                  ))}
                <tr>
                  <th scope="row">allowed vehicle types</th>
                  <td>{limits.allowed_vehicle_types.join(', ')}</td>
                </tr>
                {Object.entries(limits.rate_limits.per_key).map(([k, v]) => (
                  <tr key={`rate-${k}`}>
                    <th scope="row">requests {words(k)} (per key)</th>
                    <td className="num">{v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="rate-card-heading">
            <h2 id="rate-card-heading">Rate card</h2>
            <table>
              <tbody>
                {Object.entries(limits.rate_card).map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row">{words(k)}</th>
                    <td className="num">{typeof v === 'number' ? credits(v) : v}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      ) : null}
    </Page>
  );
}
