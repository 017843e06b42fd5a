import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createToken, operations, parseScopes, privateReadsOf, type Operation } from '@reelbase/core';
import { account, authorizeUrl, basic, drivers, expectError, FormBrowser, Harness, makeClip, registerApp, uploadByTus, type Answer } from '../src/index';
import { buildWorld, fill, type World } from '../src/world';

/**
 * What a token reads (issue 46 §3, §7), generated from the operation table: every read operation
 * × token scopes × caller, on one store where the owner holds a resource of each privacy. The
 * expectation of each cell comes from the rule the table declares (engine/read-as.ts):
 *
 * - a scope the operation needs and the token lacks: 401 without a user, else 403;
 * - "reads as owner" (the owner, holding every scope of `privateReads`): the answer of the owner
 *   with every scope; another user holding them: the answer of that user with every scope;
 * - anyone else reads as anybody: the anonymous answer, or 403 where the operation answers only
 *   its caller's own private things (`auth: 'user'`);
 * - no answer read as anybody lists one of the owner's non-public resources;
 * - every `metadata.connections` total of the owner's User is the total its list answers the same
 *   caller (0 where the list refuses them).
 */

const scopeSets = ['public', 'public private', 'all'] as const;
type Caller = { name: string; owner: boolean; user: boolean; scopes: string; token?: string };

/** Read operations whose answer is about the presented token itself, not about what it reads. */
const aboutTheToken = new Set(['oauth.verify']);

const reads = operations.filter((op) => op.method === 'GET') as Operation<unknown>[];
/** The path each operation is called by: the `/users/{user_id}` form, which anybody may name. */
const pathOf = (op: Operation<unknown>): string => op.paths.find((p) => !p.startsWith('/me')) ?? op.paths[0];
const holds = (scopes: string, needed: readonly string[]) => needed.every((s) => parseScopes(scopes).includes(s as never));
const totalOf = (r: Answer): number | undefined => (r.status === 200 && typeof r.body?.total === 'number' ? r.body.total : undefined);

/** Runs `work` on every item, `width` at a time: a few operations' callers in parallel, not every request at once. */
async function eachAtOnce<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

for (const driver of drivers) {
  describe(`the scope matrix: read operation × scopes × caller (${driver.name})`, () => {
    let h: Harness;
    let world: World;
    const vars: Record<string, string> = {};
    const callers: Caller[] = [];
    /** The URIs of the owner's non-public resources, quoted as JSON writes them. */
    const hidden: string[] = [];
    /** Videos with a source file, downloads off: one for nobody else, one for anybody. */
    const filed = { nobody: '', anybody: '' };

    before(async () => {
      h = await Harness.start(driver);
      world = await buildWorld(h);
      Object.assign(vars, world.vars);
      // The job console's rows need the operator's `admin`, which no caller here holds (`all` omits it):
      // every token is refused before the job is looked up, so any id will do.
      vars.job_id ??= '1';
      const { a } = world;
      const must = async (method: string, path: string, json: unknown) => {
        const r = await h.call(method, path, { token: a.token, json });
        assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
      };
      // The world's video, album, channel and group become non-public, and with them everything under them.
      await must('PATCH', `/videos/${vars.video_id}`, { privacy: { view: 'nobody' } });
      await must('PATCH', `/me/albums/${vars.album_id}`, { privacy: 'password', password: 'open sesame' });
      await must('PATCH', `/channels/${vars.channel_id}`, { privacy: 'moderators' });
      await must('PATCH', `/groups/${vars.group_id}`, { privacy: { view: 'members' } });
      hidden.push(
        `/videos/${vars.video_id}`,
        `/users/${a.user.id}/albums/${vars.album_id}`,
        `/channels/${vars.channel_id}`,
        `/groups/${vars.group_id}`,
        `/users/${a.user.id}/projects/${vars.project_id}`,
      );
      for (const view of ['contacts', 'users', 'password', 'unlisted', 'nobody', 'disable']) {
        const id = await h.video(a, { name: `Only ${view}`, privacy: { view }, ...(view === 'password' ? { password: 'open sesame' } : {}) });
        hidden.push(`/videos/${id}`);
      }
      await h.video(a, { name: 'For anybody' });
      const clip = await makeClip({ width: 160, height: 120, seconds: 1, audio: false });
      for (const view of ['nobody', 'anybody'] as const) filed[view] = await uploadByTus(h, a.token, clip, { name: `Filed ${view}`, privacy: { view, download: false } });
      hidden.push(`/videos/${filed.nobody}`);
      // The world's follow of C is written straight to the store; its counters follow it here, as the follow endpoint's would.
      await h.service.store.increment('users', a.user.id, 'following_total', 1);
      await h.service.store.increment('users', world.c.user.id, 'followers_total', 1);
      const now = h.clock.now();
      for (const [name, fixture, owner] of [['owner', a, true], ['other', world.b, false]] as const) {
        for (const scopes of scopeSets) {
          const { token } = await createToken(h.service.store, now, fixture.user.id, parseScopes(scopes));
          callers.push({ name: `${name} (${scopes})`, owner, user: true, scopes, token });
        }
      }
      callers.push({ name: 'anonymous', owner: false, user: false, scopes: 'public' });
      const app = await registerApp(h, world.b.user);
      vars.app_id = app.app.id;
      const granted = await h.call('POST', '/oauth/authorize/client', { form: { grant_type: 'client_credentials', scope: 'public' }, headers: { authorization: basic(app.clientId, app.secret!) } });
      assert.equal(granted.status, 200, granted.text);
      callers.push({ name: 'app (client credentials)', owner: false, user: false, scopes: 'public', token: granted.body.access_token });
    });
    after(() => h.stop());

    const caller = (name: string) => callers.find((c) => c.name === name)!;
    const listsHidden = (r: Answer) => {
      if (r.status !== 200 || !Array.isArray(r.body?.data)) return [];
      const text = JSON.stringify(r.body.data);
      return hidden.filter((uri) => text.includes(`"${uri}"`));
    };

    /** What `c` must answer for `op`, from the rule, given the reference answers. */
    function expected(op: Operation<unknown>, c: Caller, refs: Record<string, Answer>): { status: number; total?: number } {
      const needsUser = op.auth === 'user' || (op.scope !== undefined && op.scope !== 'public');
      if (!c.user) return needsUser ? { status: 401 } : { status: refs.anonymous.status, total: totalOf(refs.anonymous) };
      if (op.scope && !holds(c.scopes, [op.scope])) return { status: 403 };
      if (holds(c.scopes, privateReadsOf(op))) {
        const ref = refs[c.owner ? 'owner (all)' : 'other (all)'];
        return { status: ref.status, total: totalOf(ref) };
      }
      if (op.auth === 'user') return { status: 403 };
      // Anybody's answer; a `/me` form would name the caller, so only the user path is compared.
      return { status: refs.anonymous.status, total: totalOf(refs.anonymous) };
    }

    it('answers every read operation by the rule its table row declares', async () => {
      const unreachable: string[] = [];
      const failures: string[] = [];
      await eachAtOnce(reads, 6, async (op) => {
        let path: string;
        try {
          path = fill(pathOf(op), vars);
        } catch {
          unreachable.push(op.id);
          return;
        }
        const answers = await Promise.all(callers.map((c) => h.call('GET', path, { token: c.token })));
        const refs = Object.fromEntries(callers.map((c, i) => [c.name, answers[i]]));
        callers.forEach((c, i) => {
          const r = answers[i];
          const readsAsAnybody = !c.user || !holds(c.scopes, privateReadsOf(op));
          const leaked = readsAsAnybody ? listsHidden(r) : [];
          if (leaked.length) failures.push(`${op.id} ${path} as ${c.name} lists ${leaked.join(', ')}`);
          if (aboutTheToken.has(op.id)) return;
          const want = expected(op, c, refs);
          if (r.status !== want.status || (want.total !== undefined && totalOf(r) !== want.total)) {
            failures.push(`${op.id} ${path} as ${c.name}: ${r.status} total ${totalOf(r)}, expected ${want.status} total ${want.total} (${r.text.slice(0, 160)})`);
          }
        });
      });
      assert.deepEqual(failures, []);
      // Capability links (signed media links, review pages, upload attempts) name values no world
      // read answers, and the service's placeholder images belong to nobody.
      assert.deepEqual(unreachable.sort(), [
        'media.images.get',
        'media.placeholders.get',
        'media.play.get',
        'media.texttracks.get',
        'users.tickets.get',
        'users.uploads.get',
        'videos.review.get',
      ]);
    });

    it('reaches the owner’s source files only with video_files', async () => {
      const as = (scopes: string) => caller(`owner (${scopes})`).token;
      const own = await h.call('GET', `/videos/${filed.nobody}`, { token: as('all') });
      assert.equal(own.status, 200, own.text);
      assert.equal(own.body.files[0].quality, 'source');
      assert.equal(own.body.download.length, 1);
      assert.equal((await h.call('GET', `/videos/${filed.nobody}/file?download=true`, { token: as('all') })).status, 200);
      const noFiles = await h.call('GET', `/videos/${filed.nobody}`, { token: as('public private') });
      assert.equal(noFiles.status, 200, noFiles.text);
      assert.equal(noFiles.body.files, undefined);
      assert.deepEqual(noFiles.body.download, []);
      // The file endpoint reads as anybody without video_files: a video nobody else sees is hidden, and a download its privacy forbids refused.
      expectError(await h.call('GET', `/videos/${filed.nobody}/file`, { token: as('public private') }), 404, 5000);
      assert.equal((await h.call('GET', `/videos/${filed.anybody}/file`, { token: as('public private') })).status, 200);
      expectError(await h.call('GET', `/videos/${filed.anybody}/file?download=true`, { token: as('public private') }), 403, 3200);
      assert.equal((await h.call('GET', `/videos/${filed.anybody}/file?download=true`, { token: as('all') })).status, 200);
    });

    it('the consent page says what each asked scope reaches, in words', async () => {
      const person = { email: 'dana@example.com', password: 'correct horse battery' };
      await account(h, 'Dana', person.email, person.password);
      const app = await registerApp(h, world.b.user, { name: 'Scoped App' });
      const browser = new FormBrowser(h.server.url);
      const signIn = await browser.get(authorizeUrl(app, { scope: 'public private video_files webhooks' }));
      const signedIn = await browser.submit(signIn, '/oauth/sign_in', person);
      assert.equal(signedIn.status, 303, signedIn.text);
      const consent = await browser.get(signedIn.headers.get('location')!);
      assert.equal(consent.status, 200, consent.text);
      const asked = [...consent.text.matchAll(/<li><strong>(\w+)<\/strong>: ([^<]+)<\/li>/g)].map((m) => [m[1], m[2]]);
      assert.deepEqual(asked, [
        ['public', 'see what anybody may see, and nothing more of yours'],
        [
          'private',
          'see what you see: your private, unlisted and password-protected videos, albums, channels, groups and folders, what others share with you, your feed, watch history and watch later',
        ],
        ['video_files', 'download the source files of your videos, whatever their privacy'],
        ['webhooks', 'register webhooks that receive your videos’ events, and read their signing secrets'],
      ]);
    });

    it('counts each of the owner’s connections as the caller could list it', async () => {
      const failures: string[] = [];
      await eachAtOnce(callers, 2, async (c) => {
        const r = await h.call('GET', `/users/${world.a.user.id}`, { token: c.token });
        assert.equal(r.status, 200, r.text);
        const connections = Object.entries(r.body.metadata.connections as Record<string, { uri: string; total?: number }>).filter(([, v]) => typeof v.total === 'number');
        await Promise.all(
          connections.map(async ([name, conn]) => {
            const list = await h.call('GET', conn.uri, { token: c.token });
            const listed = list.status === 200 ? list.body.total : 0;
            if (conn.total !== listed) failures.push(`${c.name}: ${name} total ${conn.total}, its list ${list.status} total ${listed}`);
          }),
        );
      });
      assert.deepEqual(failures, []);
      // The owner reading as owner counts their non-public videos; reading as anybody, the one for anybody.
      const videos = async (name: string) => (await h.call('GET', `/users/${world.a.user.id}?fields=metadata.connections.videos`, { token: caller(name).token })).body.metadata.connections.videos.total;
      assert.ok((await videos('owner (public private)')) > (await videos('owner (public)')));
      assert.equal(await videos('owner (public)'), await videos('anonymous'));
    });
  });
}
