import type { Principal } from './auth';
import { forbidden } from './errors';
import type { Operation } from './operation';
import type { Scope } from './scopes';

/**
 * Scopes bound what a token reads, as in the hosted API (issue 46 §3): one rule, applied here
 * before any handler runs, so every visibility check downstream sees the caller it should.
 *
 * "Reads as owner" = is the user AND holds every scope the operation's private answers need
 * (`privateReads`). A token that lacks one reads as anybody would: the handler gets no user, so
 * the user's own private, password, unlisted, `nobody` and `users` resources are hidden where
 * hidden, refused where refused, and absent from lists and counts. An operation that answers
 * nothing but its caller's own private things (`auth: 'user'`) refuses such a token with 403
 * naming the scope, as a missing operation scope does.
 */

/**
 * What an operation's private answers need: as declared; else `private` for a read anybody may
 * make (no scope, or `public`); else nothing more: a write acts as the owner within its own scope,
 * and a read behind its own scope (`purchased`, `stats`, `webhooks`…) reads what that scope grants.
 */
export function privateReadsOf(op: Operation<unknown>): readonly Scope[] {
  if (op.privateReads) return op.privateReads;
  return op.method === 'GET' && (op.scope === undefined || op.scope === 'public') ? readerScopes : [];
}

const readerScopes: readonly Scope[] = ['private'];

/** The first scope of `needed` the caller lacks; undefined when it holds them all. */
export const missingScope = (principal: Principal, needed: readonly Scope[]): Scope | undefined => needed.find((s) => !principal.scopes.has(s));

/** Whom `op` runs as for `principal`: the principal itself, or (lacking a private scope) anybody. */
export function readingPrincipal(op: Operation<unknown>, principal: Principal): Principal {
  if (!principal.user) return principal;
  const missing = missingScope(principal, privateReadsOf(op));
  if (missing === undefined) return principal;
  if (op.auth === 'user') throw forbidden(`This operation answers only its caller's private data, which needs the "${missing}" scope the access token lacks.`);
  return asAnybody(principal);
}

/** The principal with its reading user set aside (made once per principal: visibility conditions are remembered by it). */
function asAnybody(principal: Principal): Principal {
  let known = anybodies.get(principal);
  if (!known) anybodies.set(principal, (known = { ...principal, user: null }));
  return known;
}

const anybodies = new WeakMap<Principal, Principal>();
