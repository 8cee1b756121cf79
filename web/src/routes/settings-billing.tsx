import { maySeeBilling } from '@hop/shared/access';
import { featuresOf as gatedFeaturesOf, PLAN_LIMITS } from '@hop/shared/plans';
import { ASSIGNABLE_PLANS } from '@hop/shared/workspaces';
import type { Plan, PlanLimits, Usage, Workspace } from '@hop/shared';
import { useUsage } from '../queries/usage.js';
import { Page } from '../components/layout.js';
import { WithWorkspace } from '../components/workspace-gate.js';
import { ErrorAlert } from '../components/error-alert.js';
import { Loading } from '../components/states.js';
import { SettingsNav } from '../components/settings-nav.js';

const n = (v: number | null) => (v === null ? 'unlimited' : v.toLocaleString('en'));
const featuresOf = (plan: Plan) => gatedFeaturesOf(plan).map((f) => f.replace('_', ' '));
/** The plan above, among those an operator assigns; none above enterprise, nor for a self-hosted server. */
const nextPlan = (plan: Plan): Plan | undefined => (plan === 'self-hosted' ? undefined : ASSIGNABLE_PLANS[ASSIGNABLE_PLANS.indexOf(plan) + 1]);

function LimitsTable({ limits, caption }: { limits: PlanLimits; caption: string }) {
  return (
    <table className="limits">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        <tr><th scope="row">Requests per hour</th><td className="num">{n(limits.requestsPerHour)}</td></tr>
        <tr><th scope="row">Requests per minute</th><td className="num">{n(limits.requestsPerMinute)}</td></tr>
        <tr><th scope="row">QR codes per hour</th><td className="num">{n(limits.qrPerHour)}</td></tr>
        <tr><th scope="row">Click retention (days)</th><td className="num">{n(limits.clickRetentionDays)}</td></tr>
      </tbody>
    </table>
  );
}

function Billing({ workspace }: { workspace: Workspace }) {
  const usage = useUsage(workspace.id);
  if (usage.isLoading) return <Loading what="Loading plan and usage" />;
  if (!usage.data) return <ErrorAlert error={usage.error} />;
  const u = usage.data;
  if (u.plan === 'self-hosted') return <SelfHosted />;
  const next = nextPlan(u.plan);
  const features = featuresOf(u.plan);
  return (
    <>
      <section className="card" aria-labelledby="plan-h">
        <h2 id="plan-h">Plan: <span data-testid="plan">{u.plan}</span></h2>
        <p>{features.length ? `Includes ${features.join(' and ')}.` : 'Webhooks and password-protected links need the pro plan.'}</p>
        <LimitsTable limits={u.limits} caption={`Limits of the ${u.plan} plan`} />
      </section>
      <UsageCard usage={u} />
      {next ? (
        <section className="card" aria-labelledby="next-h">
          <h2 id="next-h">The {next} plan</h2>
          <p>{featuresOf(next).length ? `Includes ${featuresOf(next).join(' and ')}.` : ''}</p>
          <LimitsTable limits={PLAN_LIMITS[next]} caption={`Limits of the ${next} plan`} />
          <p className="hint">Plans are changed by the operator of this Hop server. Ask them to move this workspace to {next}.</p>
        </section>
      ) : null}
    </>
  );
}

/** A self-hosted server (HOP_PLANS=off): no plan to compare, no quota to watch, nothing to upgrade. */
function SelfHosted() {
  return (
    <section className="card" aria-labelledby="plan-h">
      <h2 id="plan-h">Plan: <span data-testid="plan">self-hosted</span></h2>
      <p>This Hop server runs self-hosted: every workspace has every feature ({featuresOf('self-hosted').join(', ')} included), with no request limits, no QR code quota, and clicks kept until you delete them.</p>
      <p className="hint">Only the limits against abuse stay on: sign-in attempts and requests without a credential, per address.</p>
    </section>
  );
}

function UsageCard({ usage: u }: { usage: Usage }) {
  const used = (w: { limit: number; remaining: number }) => w.limit - w.remaining;
  return (
    <section className="card" aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      <div className="table-wrap" role="region" aria-label="Usage" tabIndex={0}>
      <table>
        <thead><tr><th scope="col">Window</th><th scope="col" className="num">Used</th><th scope="col" className="num">Limit</th><th scope="col">Resets</th></tr></thead>
        <tbody>
          {u.rateLimit ? (
            <>
              <tr><th scope="row">This hour</th><td className="num">{used(u.rateLimit.hour)}</td><td className="num">{n(u.rateLimit.hour.limit)}</td><td>{new Date(u.rateLimit.hour.resetAt).toLocaleTimeString()}</td></tr>
              <tr><th scope="row">This minute</th><td className="num">{used(u.rateLimit.minute)}</td><td className="num">{n(u.rateLimit.minute.limit)}</td><td>{new Date(u.rateLimit.minute.resetAt).toLocaleTimeString()}</td></tr>
            </>
          ) : <tr><th scope="row">Requests</th><td className="num">—</td><td className="num">unlimited</td><td>—</td></tr>}
          <tr><th scope="row">QR codes this hour</th><td className="num">{u.qr.limit === null ? '—' : u.qr.limit - (u.qr.remaining ?? 0)}</td><td className="num">{n(u.qr.limit)}</td><td>{u.qr.resetAt ? new Date(u.qr.resetAt).toLocaleTimeString() : '—'}</td></tr>
        </tbody>
      </table>
      </div>
    </section>
  );
}

export default function BillingPage() {
  return (
    <WithWorkspace>
      {(ws) => (
        <Page title="Plan and billing">
          <SettingsNav workspace={ws} />
          {maySeeBilling(ws.role) ? <Billing workspace={ws} /> : <div role="alert" className="alert">Only owners of {ws.name} see its billing. Your role is {ws.role}.</div>}
        </Page>
      )}
    </WithWorkspace>
  );
}
