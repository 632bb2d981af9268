/**
 * The owner's console: API keys (the web app's own API, not in the OpenAPI document),
 * through the organization's key commands (application/provision.ts). Owner only (403 forbidden):
 * - GET /app/api/keys → {data: [{id, name, prefix, scopes, created_at, expires_at, allowed_ips,
 *   revoked, created_by: {id, name}}]} (newest first; never a secret);
 * - POST /app/api/keys {name, scopes? (default every scope), expires_at?, allowed_ips?} → 201 the
 *   key and its `secret` (shown once); 422 validation_failed; 409 conflict past 20 active keys;
 * - POST /app/api/keys/:id/rotate {prefix} (of the secret to replace, as listed) → 200 the key and
 *   its new `secret` (the old one stops: 401 key_revoked); 409 conflict when the key's secret is
 *   no longer that one (of concurrent rotations exactly one succeeds; the others reload and retry);
 * - DELETE /app/api/keys/:id → 204 (revoked). Unknown keys 404 not_found, revoked ones 409 conflict.
 */
import { Router } from 'express';
import type { Scope } from '../../../domain/organization/organization.js';
import {
  API_KEYS,
  type ApiKeyDocument,
  type OrganizationDocument,
} from '../../../projections/organizations/projection.js';
import { jsonBody } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import { checkAllowList } from '../../../application/ip-allowlist.js';
import { createApiKey, revokeApiKey, rotateApiKey } from '../../../application/provision.js';
import { ROUTER_OPTIONS } from '../../http/route-docs.js';
import type { RouteContext } from '../../http/context.js';
import { checkedBody, validateKeyInput, validateRotation } from '../bodies.js';
import { requireActiveOrganization, requireOwner, requireWebSession, webCallerOf } from '../access.js';

interface KeyInput {
  name: string;
  scopes?: Scope[];
  expires_at?: string | null;
  allowed_ips?: string[];
}

/** The console's view of a key (never its secret or hash). */
function keyView(key: ApiKeyDocument, org: OrganizationDocument): Record<string, unknown> {
  const name = org.members[key.memberId]?.name ?? org.formerMembers?.[key.memberId]?.name ?? key.memberId;
  return {
    id: key.keyId,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    created_at: key.createdAt,
    expires_at: key.expiresAt ?? null,
    allowed_ips: key.allowedIps ?? [],
    revoked: key.revoked,
    created_by: { id: key.memberId, name },
  };
}

/** The current document of key `keyId` of `orgId` (its live secret's, or the revoked one), or undefined. */
async function currentKey(ctx: RouteContext, orgId: string, keyId: string): Promise<ApiKeyDocument | undefined> {
  const docs = await ctx.reads.collection<ApiKeyDocument>(API_KEYS).find({ where: { orgId, keyId } });
  return docs.find((d) => !d.rotated);
}

/** Problems of a key body beyond its schema: an expiry in the past, entries that are no IP or CIDR range. */
function keyProblems(input: KeyInput, now: string): { path: string; code: string; message: string }[] {
  const problems: { path: string; code: string; message: string }[] = [];
  if (input.expires_at && new Date(input.expires_at).toISOString() <= now) {
    problems.push({ path: 'expires_at', code: 'out_of_range', message: 'must be in the future' });
  }
  (input.allowed_ips ?? []).forEach((entry, i) => {
    try {
      checkAllowList([entry]);
    } catch {
      problems.push({
        path: `allowed_ips[${i}]`,
        code: 'invalid_value',
        message: `not an IP address or CIDR range: ${entry}`,
      });
    }
  });
  return problems;
}

/** Router of /app/api/keys. */
export function webAppKeysRouter(ctx: RouteContext): Router {
  const router = Router(ROUTER_OPTIONS);
  const owner = [requireWebSession(ctx), requireOwner];

  router.get('/app/api/keys', ...owner, async (_req, res) => {
    const { org } = webCallerOf(res);
    const docs = await ctx.reads.collection<ApiKeyDocument>(API_KEYS).find({ where: { orgId: org.id } });
    const data = docs
      .filter((d) => !d.rotated)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.keyId.localeCompare(b.keyId))
      .map((d) => keyView(d, org));
    res.setHeader('Cache-Control', 'no-store');
    res.json({ data });
  });

  router.post('/app/api/keys', ...owner, requireActiveOrganization, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const input = checkedBody<KeyInput>(validateKeyInput, jsonBody(req));
    const now = ctx.clock();
    const problems = keyProblems(input, now);
    if (problems.length > 0) throw new ApiError('validation_failed', 'the key has problems; see details', problems);
    const created = await createApiKey(ctx.store, {
      orgId: org.id,
      memberId: member.id,
      name: input.name.trim(),
      ...(input.scopes ? { scopes: input.scopes } : {}),
      expiresAt: input.expires_at ? new Date(input.expires_at).toISOString() : null,
      allowedIps: input.allowed_ips ?? [],
      now,
      actor: { id: member.id, name: member.name },
    });
    await ctx.projections.waitFor(created.position);
    const key = await currentKey(ctx, org.id, created.keyId);
    if (!key) throw new Error(`key ${created.keyId} not in the read model after its creation`);
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ ...keyView(key, org), secret: created.secret });
  });

  router.post('/app/api/keys/:id/rotate', ...owner, requireActiveOrganization, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const keyId = String(req.params['id']);
    const current = await currentKey(ctx, org.id, keyId);
    if (!current) throw new ApiError('not_found', `no API key ${keyId} in the organization`);
    const { prefix } = checkedBody<{ prefix: string }>(validateRotation, jsonBody(req));
    if (current.prefix !== prefix)
      throw new ApiError('conflict', `API key ${keyId} was rotated since it was read: reload the key and retry`);
    // The caller names the secret it saw (its prefix); the hash read for it goes with the
    // command, so a rotation that lands between this read and the append is refused as well.
    const rotated = await rotateApiKey(ctx.store, {
      orgId: org.id,
      keyId,
      expectedHash: current.id,
      now: ctx.clock(),
      actor: { id: member.id, name: member.name },
    });
    await ctx.projections.waitFor(rotated.position);
    // The document of the secret returned (read-model documents are keyed by the secret's hash).
    const key = await ctx.reads.collection<ApiKeyDocument>(API_KEYS).get(rotated.hash);
    if (!key) throw new Error(`key ${keyId} not in the read model after its rotation`);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...keyView(key, org), secret: rotated.secret });
  });

  router.delete('/app/api/keys/:id', ...owner, async (req, res) => {
    const { org, member } = webCallerOf(res);
    const keyId = String(req.params['id']);
    if (!(await currentKey(ctx, org.id, keyId)))
      throw new ApiError('not_found', `no API key ${keyId} in the organization`);
    await ctx.projections.waitFor(
      await revokeApiKey(ctx.store, org.id, keyId, ctx.clock(), { id: member.id, name: member.name }),
    );
    res.status(204).end();
  });
  return router;
}
