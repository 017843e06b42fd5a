import autocannon, { type Request as CannonRequest } from 'autocannon';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccountUser, createApp, createCode, type AuthorizeRequest } from '@reelbase/core';
import { percent, record, type Bench } from '../context';
import { measure, type Measure } from '../load';
import { openStore } from '../populations';
import { startAll, startPeer, startReelbase, stopAll } from '../processes';
import { kilobytes } from '../table';

/** Codes made ahead for the exchange: each works once, so a run needs one per request it may send. */
const codesPerSecond = 6000;

/**
 * Issue 35: the token endpoints beside bare node:http answering the same body. POST
 * /oauth/access_token exchanges a fresh code per request (made ahead in the store; each
 * connection takes the next); GET /oauth/verify presents one token. Neither pays for the password
 * KDF, which runs on sign-in only.
 */
export async function oauthCases(b: Bench, dir: string): Promise<void> {
  const path = join(dir, 'oauth.db');
  const store = await openStore('sqlite', path);
  const total = Math.ceil((b.settings.seconds + b.settings.warmup) * codesPerSecond);
  const basic = { client: '', secret: '' };
  const codes: string[] = [];
  const redirectUri = 'https://app.example/cb';
  try {
    const now = new Date();
    const user = await createAccountUser(store, now, { name: 'Bench', email: 'bench@example.com', password: 'a bench password' });
    const { app, secret } = await createApp(store, now, { name: 'Bench App', userId: user.id, redirectUris: [redirectUri] });
    Object.assign(basic, { client: app.client_id, secret: secret! });
    const request: AuthorizeRequest = { app, redirectUri, redirectUriSent: true, scopes: ['public', 'private'], state: undefined, codeChallenge: null, params: {} };
    await store.transaction(async (tx) => {
      for (let i = 0; i < total; i++) codes.push(await createCode(tx, now, request, user.id));
    });
  } finally {
    await store.close();
  }
  b.log(`oauth: ${codes.length} codes made ahead`);
  const authorization = `Basic ${Buffer.from(`${basic.client}:${basic.secret}`).toString('base64')}`;
  const headers = { authorization, 'content-type': 'application/x-www-form-urlencoded' };
  const body = (code: string) => new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }).toString();

  const server = await startReelbase(`sqlite:${path}`);
  let sample: string;
  let token: string;
  try {
    const first = await fetch(`${server.url}/oauth/access_token`, { method: 'POST', headers, body: body(codes.pop()!) });
    sample = await first.text();
    token = (JSON.parse(sample) as { access_token: string }).access_token;
  } finally {
    await server.stop();
  }
  const exchangeFile = join(dir, 'bare-oauth-exchange.json');
  writeFileSync(exchangeFile, sample);

  // The exchange: every request takes the next code, whichever connection sends it.
  let next = 0;
  const exchange = async (url: string): Promise<Measure> => {
    const requests = [{ method: 'POST', path: '/oauth/access_token', headers, setupRequest: (r: CannonRequest) => ({ ...r, body: body(codes[next++ % codes.length]) }) }];
    await autocannon({ url, connections: b.settings.connections, duration: b.settings.warmup, requests });
    const r = await autocannon({ url, connections: b.settings.connections, duration: b.settings.seconds, requests });
    return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.timeouts + r.non2xx };
  };
  const [bare, ours] = await startAll([() => startPeer('bare', [exchangeFile]), () => startReelbase(`sqlite:${path}`)]);
  try {
    const peer = await exchange(bare.url);
    const mine = await exchange(ours.url);
    const size = kilobytes(Buffer.byteLength(sample));
    record(b, { case: 'POST /oauth/access_token', server: 'bare node:http, serialising', body: size, rps: peer.rps, p50: peer.p50, p99: peer.p99, note: failures(peer) });
    const used = next > codes.length ? `; codes ran out (${next} requests for ${codes.length})` : '';
    record(b, { case: 'POST /oauth/access_token', server: 'reelbase sqlite', body: size, rps: mine.rps, p50: mine.p50, p99: mine.p99, note: `${percent(mine.rps / peer.rps)} of bare${failures(mine)}${used}` });

    const verified = await fetch(`${ours.url}/oauth/verify`, { headers: { authorization: `Bearer ${token}` } });
    const verifyFile = join(dir, 'bare-oauth-verify.json');
    writeFileSync(verifyFile, await verified.text());
    const [bareVerify] = await startAll([() => startPeer('bare', [verifyFile])]);
    try {
      const bearer = { authorization: `Bearer ${token}` };
      const peerV = await measure(bareVerify.url, b.settings, b.settings.connections, ['/oauth/verify'], bearer);
      const mineV = await measure(ours.url, b.settings, b.settings.connections, ['/oauth/verify'], bearer);
      const vsize = kilobytes(Buffer.byteLength(await (await fetch(`${ours.url}/oauth/verify`, { headers: bearer })).text()));
      record(b, { case: 'GET /oauth/verify', server: 'bare node:http, serialising', body: vsize, rps: peerV.rps, p50: peerV.p50, p99: peerV.p99, note: failures(peerV) });
      record(b, { case: 'GET /oauth/verify', server: 'reelbase sqlite', body: vsize, rps: mineV.rps, p50: mineV.p50, p99: mineV.p99, note: `${percent(mineV.rps / peerV.rps)} of bare${failures(mineV)}` });
    } finally {
      await bareVerify.stop();
    }
  } finally {
    await stopAll([bare, ours]);
  }
}

const failures = (m: Measure): string => (m.failed ? `; ${m.failed} failed` : '');
